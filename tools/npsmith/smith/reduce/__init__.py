"""npsmith-reduce: delta debugging of NPL programs over their syntax tree
(lexer, parser, printer, transformations, the engine, the tests of
interestingness and the command line, one module each)."""
