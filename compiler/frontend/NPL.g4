// NPL.g4 - grammar of NPL, the npcc network processing language.
// SPDX-License-Identifier: Apache-2.0
//
// Precedence follows Rust rather than C: bitwise operators bind tighter than
// comparisons, so `x & mask == v` means `(x & mask) == v`, which is what a
// packet-matching rule intends.
grammar NPL;

file : topDecl* EOF ;

topDecl
  : importDecl | constDecl | structDecl | headerDecl | annotationDecl
  | elementDecl | elementAlias | graphDecl | matchDecl | fnDecl
  ;

// `import "std.np" { Counter, Queue };` brings in only the named elements
// and graphs of the file (and all its structs, constants and functions).
importDecl : 'import' STRING importNames? ';' ;
importNames : '{' ID (',' ID)* '}' ;
constDecl : 'const' ID ':' type '=' expr ';' ;
structDecl : 'struct' ID '{' (fieldDecl ';')* '}' ;
headerDecl : 'header' ID '{' (fieldDecl ';')* '}' ;
// A struct field may have a default, used when a constructor call or a
// Click argument leaves it out.
fieldDecl : ID ':' type ('=' expr)? ;
// A named packet annotation: `annotation dst_ip: u32;` makes `p.dst_ip`.
annotationDecl : 'annotation' ID ':' type ';' ;

elementDecl : 'element' ID '(' paramList? ')' '{' elementItem* '}' ;
paramList : param (',' param)* ;
// `element LinearIPLookup = RadixIPLookup without flush;`: another name for
// an element, less the listed handlers. `without` is contextual, not
// reserved: it is checked by the parser.
elementAlias
  : 'element' name=ID '=' target=ID
    (withoutKw=ID handlers+=ID (',' handlers+=ID)*)? ';'
  ;
param : ID ':' type (ellipsis='...')? ('=' expr)? ;
elementItem
  : portDecl | stateBlock | sharedBlock | initBlock | handlerBlock
  | signalBlock | timerBlock | readHandler | writeHandler
  ;
portDecl : dir=('in' | 'out') ID ('[' expr ']')? ':' type ';' ;
stateBlock : 'state' '{' stateVar* '}' ;
// `merge sum|or|max|min` lets each core keep its own copy of a counter or
// sketch, combined with that operator when it is read (docs/multicore.md).
// `merge` is contextual, not reserved: it is checked by the parser.
stateVar : name=ID ':' (type | queueType) ('=' expr)? (mergeKw=ID mergeOp=ID)? ';' ;
// State with one copy for every instance of the element, whatever its
// arguments (a C++ static member): `shared { next_id: u16 = 1; }`.
sharedBlock : 'shared' '{' stateVar* '}' ;
// Containers, only in state: `queue<pkt, 64>` (a FIFO of packets),
// `lpm<V, 1024>` (longest-prefix match) and `hash<K, V, 4096>` (exact
// match), the last expression being the capacity.
queueType : ID '<' type (',' type)? ',' expr '>' ;
initBlock : 'init' block ;
handlerBlock : 'handler' block ;
signalBlock : 'signal' '(' ID ':' type ')' block ;
timerBlock : 'timer' 'every' expr block ;
// Click's handlers: `read count -> u64 { return n; }` answers a value,
// `write reset() { n = 0; }` takes arguments parsed from text.
readHandler : 'read' ID '->' type block ;
writeHandler : 'write' ID '(' paramList? ')' block ;

graphDecl : 'graph' ID '(' paramList? ')' '{' graphItem* '}' ;
graphItem : portDecl | instanceDecl | connection ;
instanceDecl : ID '=' ID '(' argList? ')' placement? ';' ;
placement : '@' ID ;
connection : endpoint (connOp endpoint)+ channelAttrs? ';' ;
connOp : '->' | '=>' ;
// `inst`, `inst.port`, `inst.port[k]`, or a boundary port `port`, `port[k]`.
endpoint : ID ('.' ID)? ('[' expr ']')? ;
channelAttrs : '[' channelAttr (',' channelAttr)* ']' ;
channelAttr : ID '=' expr ;

matchDecl : 'match' ID '(' paramList? ')' block ;

fnDecl : 'fn' ID '(' paramList? ')' ('->' type)? block ;

block : '{' stmt* '}' ;

stmt
  : 'let' ID (':' type)? '=' expr ';'                        # letStmt
  | 'var' ID ':' type ('=' expr)? ';'                        # varStmt
  | 'var' ID '=' expr ';'                                    # varInferStmt
  | 'if' 'let' ID '=' expr block ('else' (ifStmt | block))?  # ifLetStmt
  | ifStmt                                                   # ifStmtAlt
  | 'for' ID 'in' expr '..' expr block                       # forStmt
  | 'unroll' ID 'in' expr '..' expr 'bound' expr block         # unrollStmt
  | 'while' expr 'bound' expr block                            # whileStmt
  | 'select' '{' selectCase+ '}'                             # selectStmt
  | 'return' expr? ';'                                       # returnStmt
  | 'break' ';'                                              # breakStmt
  | 'continue' ';'                                           # continueStmt
  | 'fail' ';'                                               # failStmt
  | expr op=('=' | '+=' | '-=' | '*=' | '&=' | '|=' | '^=' | '<<=' | '>>=') expr ';' # assignStmt
  | expr ';'                                                 # exprStmt
  | block                                                    # blockStmt
  ;
ifStmt : 'if' expr block ('else' (ifStmt | block))? ;
selectCase : 'case' ID '=' 'recv' '(' portRef ')' block ;
portRef : ID ('[' expr ']')? ;

expr
  : primary                                                  # primaryExpr
  | expr '.' ID                                              # fieldExpr
  | expr '[' expr ']'                                        # indexExpr
  | op=('-' | '!' | '~') expr                                # unaryExpr
  | expr 'as' type                                           # castExpr
  | expr op=('*' | '/' | '%') expr                           # binaryExpr
  | expr op=('+' | '-') expr                                 # binaryExpr
  | expr op=('<<' | '>>') expr                               # binaryExpr
  | expr op='&' expr                                         # binaryExpr
  | expr op='^' expr                                         # binaryExpr
  | expr op='|' expr                                         # binaryExpr
  | expr op=('==' | '!=' | '<' | '<=' | '>' | '>=') expr     # binaryExpr
  | expr op='&&' expr                                        # binaryExpr
  | expr op='||' expr                                        # binaryExpr
  | <assoc=right> expr '?' expr ':' expr                     # condExpr
  ;

primary
  : INT                                                      # intLit
  | DURATION                                                 # durationLit
  | PREFIX                                                   # prefixLit
  | IPV4                                                     # ipv4Lit
  | MAC                                                      # macLit
  | ('true' | 'false')                                       # boolLit
  | STRING                                                   # strLit
  | 'header' '<' ID '>' '(' argList ')'                      # headerView
  | ID '(' argList? ')'                                      # callExpr
  | 'recv' '(' argList ')'                                   # recvExpr
  | ID                                                       # nameExpr
  | '(' expr ')'                                             # parenExpr
  | '[' expr (',' expr)* ']'                                 # arrayLit
  ;
argList : expr (',' expr)* ;

type
  : ID                                                       # namedType
  | '[' type ';' expr ']'                                    # arrayType
  | '[' type ']'                                             # unsizedArrayType
  ;

// Addresses are integer literals: 18.26.4.24 is a u32, 00:00:c0:ae:67:ef
// a u48 (six groups of two hex digits, so `c ? 1:2` stays a conditional).
// A prefix 18.26.4.0/24 is a value of type prefix.
PREFIX : DEC '.' DEC '.' DEC '.' DEC '/' DEC ;
IPV4 : DEC '.' DEC '.' DEC '.' DEC ;
MAC : HEX2 ':' HEX2 ':' HEX2 ':' HEX2 ':' HEX2 ':' HEX2 ;
// A duration is an integer literal in nanoseconds: 1s, 100ms, 10us, 5ns.
DURATION : [0-9] [0-9_]* ('s' | 'ms' | 'us' | 'ns') ;
fragment DEC : [0-9]+ ;
fragment HEX2 : [0-9a-fA-F] [0-9a-fA-F] ;
INT : [0-9] [0-9_]* | '0x' [0-9a-fA-F_]+ | '0b' [01_]+ ;
STRING : '"' (~["\\\r\n] | '\\' .)* '"' ;
ID : [a-zA-Z_] [a-zA-Z_0-9]* ;
WS : [ \t\r\n]+ -> skip ;
LINE_COMMENT : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
