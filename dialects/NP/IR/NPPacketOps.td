//===- NPPacketOps.td - channel and packet operations -------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#ifndef NPCC_DIALECTS_NP_IR_NPPACKETOPS_TD
#define NPCC_DIALECTS_NP_IR_NPPACKETOPS_TD

//===----------------------------------------------------------------------===//
// Channel operations
//===----------------------------------------------------------------------===//

// An operation that names ports of the enclosing element. Channel
// operations have no declared memory effects, so they are never removed,
// hoisted or merged.
class NP_PortUserOp<string mnemonic, list<Trait> traits = []>
    : NP_Op<mnemonic, traits # [
        DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let hasVerifier = 1;
}

def NP_RecvOp : NP_PortUserOp<"recv"> {
  let summary = "blocking receive from an input port";
  let description = [{
    Waits until the channel feeding `port` holds a value and removes it. The
    result type is the port's type.

    Example:

    ```mlir
    %p = np.recv @in : !np.pkt
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$port);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$port attr-dict `:` type($result)";
}

def NP_TryRecvOp : NP_PortUserOp<"try_recv"> {
  let summary = "non-blocking receive from an input port";
  let description = [{
    Removes a value from the channel feeding `port` if there is one. `ok` is
    true when a value was received; otherwise `value` is a null packet or 0.

    Example:

    ```mlir
    %ok, %p = np.try_recv @in : !np.pkt
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$port);
  let results = (outs I1:$ok, AnyType:$value);
  let assemblyFormat = "$port attr-dict `:` type($value)";
  let builders = [
    OpBuilder<(ins "::mlir::Type":$valueType, "::llvm::StringRef":$port), [{
      build($_builder, $_state, $_builder.getI1Type(), valueType, port);
    }]>
  ];
}

def NP_SendOp : NP_PortUserOp<"send"> {
  let summary = "send a value on an output port";
  let description = [{
    Appends `value` to the channel behind `port`. On a lossless channel the
    sender blocks while the channel is full; on a lossy one the value is
    dropped and counted. Sending a packet passes its ownership on.

    Example:

    ```mlir
    np.send @out, %p : !np.pkt
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$port, AnyType:$value);
  let assemblyFormat = "$port `,` $value attr-dict `:` type($value)";
}

def NP_FusedSendOp : NP_PortUserOp<"fused_send"> {
  let summary = "send a value on a fused channel: a direct call";
  let description = [{
    `np.send` on an output port whose channel `np-fuse` fused: `target`,
    `@element::@port`, names the consumer's element and the input port at
    the other end, and that element's `np.push` body for the port runs as
    a direct call with `value`, on the sender's stack. Counters, ownership
    and blocking are those of `np.send` followed by the consumer's receive:
    the value is counted as sent on the channel and received by the
    consumer, a packet passes to the consumer, and a push body that has to
    wait makes the sender wait.

    The call is made only when the runtime would have run the consumer's
    handler as a pushed call at that moment (the consumer still runs, the
    channel is empty, the graph is past init and signals, calls on this
    stack nest less than 64 deep); otherwise the value goes into the
    channel exactly as `np.send` would send it, and the consumer's own
    thread receives it with its handler.

    Example:

    ```mlir
    np.fused_send @out, %p to @Counter_1::@in : !np.pkt
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$port, SymbolRefAttr:$target,
                       AnyType:$value);
  let assemblyFormat =
      "$port `,` $value `to` $target attr-dict `:` type($value)";
}

def NP_SelectOp : NP_PortUserOp<"select"> {
  let summary = "wait until one of several input ports is ready";
  let description = [{
    CSP alternation: blocks until at least one of `ports` can be received
    from and returns the position in the list of a ready port. It does not
    receive; the handler follows with `np.recv` on the chosen port.

    Example:

    ```mlir
    %idx = np.select [@a, @b]
    ```
  }];
  let arguments = (ins FlatSymbolRefArrayAttr:$ports);
  let results = (outs I32:$index);
  let assemblyFormat = "$ports attr-dict";
  let builders = [
    OpBuilder<(ins "::mlir::ArrayAttr":$ports), [{
      build($_builder, $_state, $_builder.getI32Type(), ports);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Packet buffers and devices
//===----------------------------------------------------------------------===//

def NP_DropOp : NP_Op<"drop"> {
  let summary = "release a packet (an explicit, counted drop)";
  let description = [{
    Returns the packet to its pool. Drops are explicit so they can be
    counted; a packet is never dropped silently.

    Example:

    ```mlir
    np.drop %p
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemFree<NP_PacketResource>]>:$pkt);
  let assemblyFormat = "$pkt attr-dict";
}

def NP_CloneOp : NP_Op<"clone"> {
  let summary = "copy a packet";
  let description = [{
    Returns a new packet with the bytes and metadata of `pkt` (Click's Tee).

    Example:

    ```mlir
    %q = np.clone %p
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>]>:$pkt);
  let results = (outs Res<NP_PacketType, "the copy",
                          [MemAlloc<NP_PacketResource>]>:$result);
  let assemblyFormat = "$pkt attr-dict";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$pkt), [{
      build($_builder, $_state, pkt.getType(), pkt);
    }]>
  ];
}

def NP_PktNewOp : NP_Op<"pkt_new"> {
  let summary = "allocate a packet";
  let description = [{
    Returns a new packet whose frame is `len` zero bytes long.

    Example:

    ```mlir
    %p = np.pkt_new %len : i32
    ```
  }];
  let arguments = (ins I32:$len);
  let results = (outs Res<NP_PacketType, "the new packet",
                          [MemAlloc<NP_PacketResource>]>:$result);
  let assemblyFormat = "$len attr-dict `:` type($len)";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$len), [{
      build($_builder, $_state, PacketType::get($_builder.getContext()), len);
    }]>
  ];
}

def NP_DeviceRecvOp : NP_Op<"device_recv"> {
  let summary = "receive a packet from a network device";
  let description = [{
    Blocks until device `dev` delivers a frame (from a pcap file when
    emulated). At the end of the input the element terminates.

    Example:

    ```mlir
    %p = np.device_recv %dev
    ```
  }];
  let arguments = (ins I32:$dev);
  let results = (outs NP_PacketType:$result);
  let assemblyFormat = "$dev attr-dict";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$dev), [{
      build($_builder, $_state, PacketType::get($_builder.getContext()), dev);
    }]>
  ];
}

def NP_DeviceSendOp : NP_Op<"device_send"> {
  let summary = "transmit a packet on a network device";
  let description = [{
    Hands `pkt` to device `dev`, which takes ownership.

    Example:

    ```mlir
    np.device_send %dev, %p
    ```
  }];
  let arguments = (ins I32:$dev, NP_PacketType:$pkt);
  let assemblyFormat = "$dev `,` $pkt attr-dict";
}

//===----------------------------------------------------------------------===//
// Packet contents
//===----------------------------------------------------------------------===//

def NP_PktLenOp : NP_Op<"pkt_len"> {
  let summary = "the length of a packet's frame in bytes";
  let description = [{
    Example:

    ```mlir
    %n = np.pkt_len %p
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>]>:$pkt);
  let results = (outs I32:$len);
  let assemblyFormat = "$pkt attr-dict";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$pkt), [{
      build($_builder, $_state, $_builder.getI32Type(), pkt);
    }]>
  ];
}

def NP_PktGetOp : NP_Op<"pkt_get"> {
  let summary = "read a bit field of a packet";
  let description = [{
    Reads the `width`-bit field that starts `bit` bits after byte `offset`
    of the frame, in network bit order (bit 0 is the most significant bit of
    byte 0), and returns it as an integer of that width. `offset` is a
    64-bit byte offset, so no packet index can overflow into a small one;
    `bit` is a constant (a header field's position in its header). Bits past
    the end of the frame read as 0, for every offset up to 2^64-1. `header`
    and `field` name the NPL header field, for readability.
    Example:
    ```mlir
    %off = arith.constant 0 : i64
    %type = np.pkt_get %p, %off {width = 16 : i32, bit = 96 : i32, header = "eth", field = "type"} : i16
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>]>:$pkt,
                       I64:$offset, I32Attr:$width,
                       DefaultValuedAttr<I32Attr, "0">:$bit,
                       OptionalAttr<StrAttr>:$header,
                       OptionalAttr<StrAttr>:$field);
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = "$pkt `,` $offset attr-dict `:` type($result)";
  let hasVerifier = 1;
  let builders = [
    // Derives `width` from the result type; `bit` is 0.
    OpBuilder<(ins "::mlir::IntegerType":$resultType, "::mlir::Value":$pkt,
                   "::mlir::Value":$offset)>
  ];
}

def NP_PktSetOp : NP_Op<"pkt_set"> {
  let summary = "write a bit field of a packet";
  let description = [{
    Writes `value` into the `width`-bit field that starts `bit` bits after
    byte `offset` of the frame, in network bit order; `width` equals the
    width of `value`'s type. Bits past the end of the frame are not written,
    for every offset up to 2^64-1. `header` and `field` are for readability.
    Example:
    ```mlir
    %off = arith.constant 14 : i64
    np.pkt_set %p, %off, %ttl {width = 8 : i32, bit = 64 : i32, header = "ip", field = "ttl"} : i8
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>,
                            MemWrite<NP_PacketResource>]>:$pkt,
                       I64:$offset, AnySignlessInteger:$value, I32Attr:$width,
                       DefaultValuedAttr<I32Attr, "0">:$bit,
                       OptionalAttr<StrAttr>:$header,
                       OptionalAttr<StrAttr>:$field);
  let assemblyFormat =
      "$pkt `,` $offset `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
  let builders = [
    // Derives `width` from the type of `value`; `bit` is 0.
    OpBuilder<(ins "::mlir::Value":$pkt, "::mlir::Value":$offset,
                   "::mlir::Value":$value)>
  ];
}

def NP_MetaGetOp : NP_Op<"meta_get"> {
  let summary = "read a metadata field of a packet";
  let description = [{
    Reads packet metadata: `in_port`, `paint` and `out_port` are `i32`,
    `anno` (the annotation word) is `i64`.

    Example:

    ```mlir
    %color = np.meta_get %p "paint" : i32
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>]>:$pkt,
                       StrAttr:$field);
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = "$pkt $field attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def NP_MetaSetOp : NP_Op<"meta_set"> {
  let summary = "write a metadata field of a packet";
  let description = [{
    Writes packet metadata; the fields and their types are those of
    `np.meta_get`.

    Example:

    ```mlir
    np.meta_set %p "paint", %color : i32
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>,
                            MemWrite<NP_PacketResource>]>:$pkt,
                       StrAttr:$field, AnySignlessInteger:$value);
  let assemblyFormat = "$pkt $field `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def NP_AnnoGetOp : NP_Op<"anno_get"> {
  let summary = "read a named annotation of a packet";
  let description = [{
    Reads the annotation the program declared as `name` (`anno dst_ip:
    u32;`), kept in word `slot` of the packet's annotation area (0..15),
    truncated to the result type.

    Example:

    ```mlir
    %a = np.anno_get %p "dst_ip" 0 : i32
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>]>:$pkt,
                       StrAttr:$name,
                       ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<15>]>:$slot);
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = "$pkt $name $slot attr-dict `:` type($result)";
}

def NP_AnnoSetOp : NP_Op<"anno_set"> {
  let summary = "write a named annotation of a packet";
  let description = [{
    Writes the annotation in word `slot` (zero-extending the value).

    Example:

    ```mlir
    np.anno_set %p "dst_ip" 0, %a : i32
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>,
                            MemWrite<NP_PacketResource>]>:$pkt,
                       StrAttr:$name,
                       ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<15>]>:$slot,
                       AnySignlessInteger:$value);
  let assemblyFormat = "$pkt $name $slot `,` $value attr-dict `:` type($value)";
}

class NP_PktResizeOp<string mnemonic> : NP_Op<mnemonic> {
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>,
                            MemWrite<NP_PacketResource>]>:$pkt,
                       I32:$bytes);
  let results = (outs I1:$ok);
  let assemblyFormat = "$pkt `,` $bytes attr-dict";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$pkt, "::mlir::Value":$bytes), [{
      build($_builder, $_state, $_builder.getI1Type(), pkt, bytes);
    }]>
  ];
}

def NP_PktPullOp : NP_PktResizeOp<"pkt_pull"> {
  let summary = "remove bytes from the front of a packet";
  let description = [{
    Removes `bytes` bytes from the front of the frame (Click's Strip). `ok`
    is false, and the packet unchanged, when the frame is shorter.

    Example:

    ```mlir
    %ok = np.pkt_pull %p, %c14
    ```
  }];
}

def NP_PktPushOp : NP_PktResizeOp<"pkt_push"> {
  let summary = "prepend bytes to a packet";
  let description = [{
    Prepends `bytes` bytes (of unspecified value) to the frame, using the
    headroom (Click's EtherEncap). `ok` is false, and the packet unchanged,
    when the headroom is too small.

    Example:

    ```mlir
    %ok = np.pkt_push %p, %c14
    ```
  }];
}

def NP_PktPutOp : NP_PktResizeOp<"pkt_put"> {
  let summary = "append zero bytes to a packet";
  let description = [{
    Appends `bytes` zero bytes to the frame, using the tailroom (Click's
    put). `ok` is false, and the packet unchanged, when the tailroom is too
    small.

    Example:

    ```mlir
    %ok = np.pkt_put %p, %c4
    ```
  }];
}

def NP_PktTakeOp : NP_PktResizeOp<"pkt_take"> {
  let summary = "remove bytes from the end of a packet";
  let description = [{
    Removes `bytes` bytes from the end of the frame (Click's take). `ok` is
    false, and the packet unchanged, when the frame is shorter.

    Example:

    ```mlir
    %ok = np.pkt_take %p, %c4
    ```
  }];
}

def NP_PktCsumOp : NP_Op<"pkt_csum"> {
  let summary = "one's complement sum of a packet range (RFC 1071)";
  let description = [{
    Adds the 16-bit big-endian words of bytes `offset` .. `offset + len` of
    the frame to `acc` in one's complement arithmetic and returns the sum
    folded to 16 bits (not complemented). Bytes past the end of the frame
    count as 0, so an odd range ends with its last byte as the high byte of
    a word. The Internet checksum of a header is the complement of the sum
    with its checksum field zero.

    Example:

    ```mlir
    %s = np.pkt_csum %p, %c14, %c20, %c0
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>]>:$pkt,
                       I32:$offset, I32:$len, I32:$acc);
  let results = (outs I32:$sum);
  let assemblyFormat = "$pkt `,` $offset `,` $len `,` $acc attr-dict";
}

def NP_PktCrcOp : NP_Op<"pkt_crc"> {
  let summary = "CRC-32 of a packet range";
  let description = [{
    The CRC-32 of bytes `offset` .. `offset + len` of the frame (clipped to
    the frame): Ethernet's (reflected polynomial 0xedb88320), or with
    `castagnoli` CRC-32C (0x82f63b78); initial value and final xor
    0xffffffff.

    Example:

    ```mlir
    %c = np.pkt_crc %p, %c0, %n {castagnoli}
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>]>:$pkt,
                       I32:$offset, I32:$len, UnitAttr:$castagnoli);
  let results = (outs I32:$crc);
  let assemblyFormat = "$pkt `,` $offset `,` $len attr-dict";
}

def NP_CrcOp : NP_Op<"crc", [Pure]> {
  let summary = "CRC-32 of an integer's bytes";
  let description = [{
    The CRC-32 (as `np.pkt_crc`) of the bytes of `value` in network order,
    most significant first. Its width is a multiple of 8.

    Example:

    ```mlir
    %c = np.crc %addr : i32
    ```
  }];
  let arguments = (ins AnySignlessInteger:$value, UnitAttr:$castagnoli);
  let results = (outs I32:$crc);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def NP_PktCopyOp : NP_Op<"pkt_copy"> {
  let summary = "copy bytes between packets";
  let description = [{
    Copies `len` bytes from offset `src_offset` of `src` to offset
    `dst_offset` of `dst`, as memmove does when they are the same packet.
    Bytes past the end of `src` read as 0; bytes past the end of `dst` are
    not written.

    Example:

    ```mlir
    np.pkt_copy %q, %c0, %p, %c14, %c20
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the destination",
                           [MemRead<NP_PacketResource>,
                            MemWrite<NP_PacketResource>]>:$dst,
                       I32:$dst_offset,
                       Arg<NP_PacketType, "the source",
                           [MemRead<NP_PacketResource>]>:$src,
                       I32:$src_offset, I32:$len);
  let assemblyFormat = [{
    $dst `,` $dst_offset `,` $src `,` $src_offset `,` $len attr-dict
  }];
}

def NP_PktToWordOp : NP_Op<"pkt_to_word", [Pure]> {
  let summary = "a packet as a word a packet queue stores";
  let description = [{
    The packet as a 64-bit word, for the state of a `queue<pkt, N>`; the
    front end pairs every `np.pkt_to_word` with one `np.word_to_pkt` of the
    same word, so a packet stays owned exactly once.

    Example:

    ```mlir
    %w = np.pkt_to_word %p
    ```
  }];
  let arguments = (ins NP_PacketType:$pkt);
  let results = (outs I64:$word);
  let assemblyFormat = "$pkt attr-dict";
}

def NP_WordToPktOp : NP_Op<"word_to_pkt", [Pure]> {
  let summary = "the packet a queue word stands for";
  let description = [{
    The inverse of `np.pkt_to_word`.

    Example:

    ```mlir
    %p = np.word_to_pkt %w
    ```
  }];
  let arguments = (ins I64:$word);
  let results = (outs NP_PacketType:$pkt);
  let assemblyFormat = "$word attr-dict";
}

def NP_FinishOp : NP_Op<"finish"> {
  let summary = "end the instance";
  let description = [{
    Ends the running instance as if its inputs had ended: its outputs close
    (what they hold is still delivered) and it never runs again; nothing
    after it in the handler runs. A source that has produced all it will
    (Click's InfiniteSource with a LIMIT) ends this way.

    Example:

    ```mlir
    np.finish
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def NP_NowOp : NP_Op<"now"> {
  let summary = "the program's clock";
  let description = [{
    Nanoseconds since the epoch: on a trace, the time stamp of the last
    packet an input device read (0 before the first); in a timer body, the
    timer's deadline.

    Example:

    ```mlir
    %t = np.now
    ```
  }];
  let results = (outs I64:$time);
  let assemblyFormat = "attr-dict";
}

def NP_PrintPktOp : NP_Op<"print_pkt"> {
  let summary = "print a packet as Click's Print element does";
  let description = [{
    Writes one line to standard error: `label: ` (when the label is not
    empty), the length right-aligned in four columns, then ` | ` and the
    first `max` bytes (all of them when `max` is negative) in hex, a space
    before every fourth byte.

    Example:

    ```mlir
    np.print_pkt %p, %c24 {label = "in"}
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>]>:$pkt,
                       I32:$max, StrAttr:$label);
  let assemblyFormat = "$pkt `,` $max attr-dict";
}

def NP_PrintOp : NP_Op<"print"> {
  let summary = "print a labelled integer";
  let description = [{
    Writes `label: value` to standard error, the value in decimal (signed
    with `is_signed`).

    Example:

    ```mlir
    np.print %n {label = "count"} : i64
    ```
  }];
  let arguments = (ins AnySignlessInteger:$value, StrAttr:$label,
                       UnitAttr:$is_signed);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def NP_PktTruncateOp : NP_Op<"pkt_truncate"> {
  let summary = "shorten a packet";
  let description = [{
    Cuts the frame to `len` bytes; a frame that is not longer is unchanged.

    Example:

    ```mlir
    np.pkt_truncate %p, %len
    ```
  }];
  let arguments = (ins Arg<NP_PacketType, "the packet",
                           [MemRead<NP_PacketResource>,
                            MemWrite<NP_PacketResource>]>:$pkt,
                       I32:$len);
  let assemblyFormat = "$pkt `,` $len attr-dict";
}

#endif // NPCC_DIALECTS_NP_IR_NPPACKETOPS_TD
