// RUN: npcc-opt %s -split-input-file -np-check-channels -verify-diagnostics
// RUN: not npcc-opt %s -split-input-file -np-check-channels=channel-depth=bad 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPTION
// RUN: not npcc-opt %s -split-input-file -np-check-channels=channel-depth=error 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WERROR
// RUN: not npcc-opt %s -split-input-file -np-check-channels=channel-depth=ignore 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IGNORE --implicit-check-not=warning:

// OPTION: error: np-check-channels: channel-depth must be 'warn', 'error' or 'ignore', not 'bad'
// WERROR: error: 'b' may send 2 values on 'o' per run, but channel 'b.o' -> 's.i' has depth 1; inferred depth 2 [-Werror,-Wchannel-depth]
// IGNORE: np.connect @b::@o to @s::@i depth 1 {inferred_depth = 2 : i64}

// What np-check-channels rejects. Ports carry i32 so that the handlers
// need no packets.

// Two producers into one port: the graph verifier rejects it as soon as
// the IR is parsed, before any pass runs (the pass checks the same).
np.element @Src {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32
  }
}
np.element @Sink {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
  }
}
np.graph @TwoProducers attributes {top} {
  np.instance @a of @Src
  np.instance @b of @Src
  np.instance @s of @Sink
  np.connect @a::@o to @s::@i depth 4 // expected-note {{first connection here}}
  // expected-error @+1 {{'np.connect' op port 's.i' is already connected}}
  np.connect @b::@o to @s::@i depth 4
}

// -----

// Two consumers of one port, likewise.
np.element @Src {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32
  }
}
np.element @Sink {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
  }
}
np.graph @TwoConsumers attributes {top} {
  np.instance @a of @Src
  np.instance @s of @Sink
  np.instance @t of @Sink
  np.connect @a::@o to @s::@i depth 4 // expected-note {{first connection here}}
  // expected-error @+1 {{'np.connect' op port 'a.o' is already connected}}
  np.connect @a::@o to @t::@i depth 4
}

// -----

// A cycle of rendezvous channels, whatever the handlers do.
np.element @Src {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32
  }
}
np.element @Join {
  np.port @a in : i32
  np.port @b in : i32
  np.port @o out : i32
  np.handler {
    %k = np.select [@a, @b]
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %k, %c0 : i32
    %v = scf.if %first -> (i32) {
      %x = np.recv @a : i32
      scf.yield %x : i32
    } else {
      %x = np.recv @b : i32
      scf.yield %x : i32
    }
    np.send @o, %v : i32
  }
}
np.element @Fwd {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    %v = np.recv @i : i32
    np.send @o, %v : i32
  }
}
np.graph @UnbufferedCycle attributes {top} {
  np.instance @src of @Src
  np.instance @j of @Join
  np.instance @f of @Fwd
  np.instance @g of @Fwd
  np.connect @src::@o to @j::@a depth 64
  // expected-error @+1 {{cycle of rendezvous channels (depth 0): 'j.o' -> 'f.i', 'f.o' -> 'g.i' and 'g.o' -> 'j.b'; every instance on it can wait for the next for ever: give one of them a depth}}
  np.connect @j::@o to @f::@i depth 0
  np.connect @f::@o to @g::@i depth 0 // expected-note {{channel 'f.o' -> 'g.i' of the cycle}}
  np.connect @g::@o to @j::@b depth 0 // expected-note {{channel 'g.o' -> 'j.b' of the cycle}}
}

// -----

// An instance connected to itself by a rendezvous channel.
np.element @Loop {
  np.port @i in : i32
  np.port @o out : i32
  np.init {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32
  }
  np.handler {
    %v = np.recv @i : i32
    np.send @o, %v : i32
  }
}
np.graph @SelfLoop attributes {top} {
  np.instance @l of @Loop
  // expected-error @+1 {{cycle of rendezvous channels (depth 0): 'l.o' -> 'l.i';}}
  np.connect @l::@o to @l::@i depth 0
}

// -----

// Two instances that each receive first from the other, through buffered
// channels with nothing in them: neither ever runs.
np.element @Fwd {
  np.port @i in : i32
  np.port @o out : i32
  np.handler {
    // expected-note @+2 {{'a' waits here to receive on 'a.i' from 'b'}}
    // expected-note @+1 {{'b' waits here to receive on 'b.i' from 'a'}}
    %v = np.recv @i : i32
    np.send @o, %v : i32
  }
}
np.graph @StarvedRing attributes {top} {
  // expected-error @+1 {{deadlock: 'a' and 'b' wait for each other for ever}}
  np.instance @a of @Fwd
  np.instance @b of @Fwd
  np.connect @a::@o to @b::@i depth 8
  np.connect @b::@o to @a::@i depth 8
}

// -----

// Rendezvous ordering: `s` sends on c1 then c2, `j` receives c2 then c1.
// Both wait for ever on the first packet; the source behind `s` only
// waits on them (it is not part of the cycle and not named).
np.element @Src {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32
  }
}
np.element @Split {
  np.port @i in : i32
  np.port @c1 out : i32
  np.port @c2 out : i32
  np.handler {
    %v = np.recv @i : i32
    np.send @c1, %v : i32 // expected-note {{'s' waits here to send on 's.c1' to 'j' (a rendezvous)}}
    np.send @c2, %v : i32
  }
}
np.element @Join {
  np.port @c1 in : i32
  np.port @c2 in : i32
  np.handler {
    %b = np.recv @c2 : i32 // expected-note {{'j' waits here to receive on 'j.c2' from 's'}}
    %a = np.recv @c1 : i32
  }
}
np.graph @RendezvousOrder attributes {top} {
  np.instance @src of @Src
  // expected-error @+1 {{deadlock: 's' and 'j' wait for each other for ever}}
  np.instance @s of @Split
  np.instance @j of @Join
  np.connect @src::@o to @s::@i depth 64
  np.connect @s::@c1 to @j::@c1 depth 0
  np.connect @s::@c2 to @j::@c2 depth 0
}

// -----

// The same order with buffered channels is a deadlock as soon as c1 is
// full: `s` has put one value into c1 (depth 1) and waits to put the next.
np.element @Src {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32
  }
}
np.element @Split {
  np.port @i in : i32
  np.port @c1 out : i32
  np.port @c2 out : i32
  np.handler {
    %v = np.recv @i : i32
    np.send @c1, %v : i32
    np.send @c1, %v : i32 // expected-note {{'s' waits here to send on 's.c1' to 'j' (full at depth 1)}}
    np.send @c2, %v : i32
  }
}
np.element @Join {
  np.port @c1 in : i32
  np.port @c2 in : i32
  np.handler {
    %b = np.recv @c2 : i32 // expected-note {{'j' waits here to receive on 'j.c2' from 's'}}
    %a = np.recv @c1 : i32
    %a2 = np.recv @c1 : i32
  }
}
np.graph @FullBuffer attributes {top} {
  np.instance @src of @Src
  // expected-error @+1 {{deadlock: 's' and 'j' wait for each other for ever}}
  np.instance @s of @Split
  np.instance @j of @Join
  np.connect @src::@o to @s::@i depth 64
  // expected-warning @+1 {{'s' may send 2 values on 'c1' per run, but channel 's.c1' -> 'j.c1' has depth 1; inferred depth 2 [-Wchannel-depth]}}
  np.connect @s::@c1 to @j::@c1 depth 1
  np.connect @s::@c2 to @j::@c2 depth 1
}

// -----

// A depth warning: an error with channel-depth=error, silent with
// channel-depth=ignore, where the inferred depth is still recorded.
np.element @Burst {
  np.port @o out : i32
  np.handler {
    %c = arith.constant 1 : i32
    np.send @o, %c : i32
    np.send @o, %c : i32
  }
}
np.element @Sink {
  np.port @i in : i32
  np.handler {
    %v = np.recv @i : i32
  }
}
np.graph @DepthError attributes {top} {
  np.instance @b of @Burst
  np.instance @s of @Sink
  // expected-warning @+1 {{'b' may send 2 values on 'o' per run, but channel 'b.o' -> 's.i' has depth 1; inferred depth 2 [-Wchannel-depth]}}
  np.connect @b::@o to @s::@i depth 1
}
