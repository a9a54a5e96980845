// RUN: npcc-opt %s -split-input-file -np-split-placement=side=host -verify-diagnostics
// RUN: npcc-opt %s -split-input-file -np-split-placement=side=fpga -verify-diagnostics

// 31 cut channels: one more than the PCIe I/O channel's data slots.
module {
  np.graph @M attributes {top} {
    np.instance @h0 of @Src {placement = "host"}
    np.instance @f0 of @Dst {placement = "fpga"}
    np.instance @h1 of @Src {placement = "host"}
    np.instance @f1 of @Dst {placement = "fpga"}
    np.instance @h2 of @Src {placement = "host"}
    np.instance @f2 of @Dst {placement = "fpga"}
    np.instance @h3 of @Src {placement = "host"}
    np.instance @f3 of @Dst {placement = "fpga"}
    np.instance @h4 of @Src {placement = "host"}
    np.instance @f4 of @Dst {placement = "fpga"}
    np.instance @h5 of @Src {placement = "host"}
    np.instance @f5 of @Dst {placement = "fpga"}
    np.instance @h6 of @Src {placement = "host"}
    np.instance @f6 of @Dst {placement = "fpga"}
    np.instance @h7 of @Src {placement = "host"}
    np.instance @f7 of @Dst {placement = "fpga"}
    np.instance @h8 of @Src {placement = "host"}
    np.instance @f8 of @Dst {placement = "fpga"}
    np.instance @h9 of @Src {placement = "host"}
    np.instance @f9 of @Dst {placement = "fpga"}
    np.instance @h10 of @Src {placement = "host"}
    np.instance @f10 of @Dst {placement = "fpga"}
    np.instance @h11 of @Src {placement = "host"}
    np.instance @f11 of @Dst {placement = "fpga"}
    np.instance @h12 of @Src {placement = "host"}
    np.instance @f12 of @Dst {placement = "fpga"}
    np.instance @h13 of @Src {placement = "host"}
    np.instance @f13 of @Dst {placement = "fpga"}
    np.instance @h14 of @Src {placement = "host"}
    np.instance @f14 of @Dst {placement = "fpga"}
    np.instance @h15 of @Src {placement = "host"}
    np.instance @f15 of @Dst {placement = "fpga"}
    np.instance @h16 of @Src {placement = "host"}
    np.instance @f16 of @Dst {placement = "fpga"}
    np.instance @h17 of @Src {placement = "host"}
    np.instance @f17 of @Dst {placement = "fpga"}
    np.instance @h18 of @Src {placement = "host"}
    np.instance @f18 of @Dst {placement = "fpga"}
    np.instance @h19 of @Src {placement = "host"}
    np.instance @f19 of @Dst {placement = "fpga"}
    np.instance @h20 of @Src {placement = "host"}
    np.instance @f20 of @Dst {placement = "fpga"}
    np.instance @h21 of @Src {placement = "host"}
    np.instance @f21 of @Dst {placement = "fpga"}
    np.instance @h22 of @Src {placement = "host"}
    np.instance @f22 of @Dst {placement = "fpga"}
    np.instance @h23 of @Src {placement = "host"}
    np.instance @f23 of @Dst {placement = "fpga"}
    np.instance @h24 of @Src {placement = "host"}
    np.instance @f24 of @Dst {placement = "fpga"}
    np.instance @h25 of @Src {placement = "host"}
    np.instance @f25 of @Dst {placement = "fpga"}
    np.instance @h26 of @Src {placement = "host"}
    np.instance @f26 of @Dst {placement = "fpga"}
    np.instance @h27 of @Src {placement = "host"}
    np.instance @f27 of @Dst {placement = "fpga"}
    np.instance @h28 of @Src {placement = "host"}
    np.instance @f28 of @Dst {placement = "fpga"}
    np.instance @h29 of @Src {placement = "host"}
    np.instance @f29 of @Dst {placement = "fpga"}
    np.instance @h30 of @Src {placement = "host"}
    np.instance @f30 of @Dst {placement = "fpga"}
    np.connect @h0::@o to @f0::@i depth 64
    np.connect @h1::@o to @f1::@i depth 64
    np.connect @h2::@o to @f2::@i depth 64
    np.connect @h3::@o to @f3::@i depth 64
    np.connect @h4::@o to @f4::@i depth 64
    np.connect @h5::@o to @f5::@i depth 64
    np.connect @h6::@o to @f6::@i depth 64
    np.connect @h7::@o to @f7::@i depth 64
    np.connect @h8::@o to @f8::@i depth 64
    np.connect @h9::@o to @f9::@i depth 64
    np.connect @h10::@o to @f10::@i depth 64
    np.connect @h11::@o to @f11::@i depth 64
    np.connect @h12::@o to @f12::@i depth 64
    np.connect @h13::@o to @f13::@i depth 64
    np.connect @h14::@o to @f14::@i depth 64
    np.connect @h15::@o to @f15::@i depth 64
    np.connect @h16::@o to @f16::@i depth 64
    np.connect @h17::@o to @f17::@i depth 64
    np.connect @h18::@o to @f18::@i depth 64
    np.connect @h19::@o to @f19::@i depth 64
    np.connect @h20::@o to @f20::@i depth 64
    np.connect @h21::@o to @f21::@i depth 64
    np.connect @h22::@o to @f22::@i depth 64
    np.connect @h23::@o to @f23::@i depth 64
    np.connect @h24::@o to @f24::@i depth 64
    np.connect @h25::@o to @f25::@i depth 64
    np.connect @h26::@o to @f26::@i depth 64
    np.connect @h27::@o to @f27::@i depth 64
    np.connect @h28::@o to @f28::@i depth 64
    np.connect @h29::@o to @f29::@i depth 64
    // expected-error @below {{placement cuts 31 channels between host and FPGA; the PCIe I/O channel has 30 data slots}}
    np.connect @h30::@o to @f30::@i depth 64
  }
  np.element @Src {
    np.port @o out : !np.pkt
    np.handler {
      %c0 = arith.constant 0 : i32
      %p = np.device_recv %c0
      np.send @o, %p : !np.pkt
    }
  }
  np.element @Dst {
    np.port @i in : !np.pkt
    np.handler {
      %p = np.recv @i : !np.pkt
      np.drop %p
    }
  }
}

// -----

// Only packets cross.
module {
  np.graph @M attributes {top} {
    np.instance @h of @Cnt {placement = "host"}
    np.instance @f of @Use {placement = "fpga"}
    // expected-error @below {{the channel from 'h' (@host) to 'f' (@fpga) carries 'i32'; only packet channels can cross between host and FPGA}}
    np.connect @h::@o to @f::@i depth 4
  }
  np.element @Cnt {
    np.port @o out : i32
    np.handler {
      %c0 = arith.constant 0 : i32
      np.send @o, %c0 : i32
    }
  }
  np.element @Use {
    np.port @i in : i32
    np.handler {
      %v = np.recv @i : i32
    }
  }
}
