require(library "variadic-lib.np")
FromDevice(0) -> K(1, 1.0.0.0/8, LIST 18.26.4.0/24) -> ToDevice(0);
