// One network processing unit of the modular-NPU router (Berrayana et
// al., "Modular on-chip multiprocessor for routing applications", Fig. 1):
// Click's IPv4 router cut to the two interfaces an NPU has, its Ethernet
// link (device 0) and its port on the on-chip switch matrix (device 1).
// A packet from the Ethernet that the router forwards leaves for the
// matrix with the matrix's header (SwitchEncap); a packet from the matrix
// was routed by the NPU that took it in, so it only loses that header
// (Strip(8)) on its way out to the Ethernet. The forwarding path is the
// one of examples/ipv4-router/router.click; packets that router answers
// with ICMP errors are dropped here (counted) instead, as the paper's
// Fig. 1 has no ICMPError. -D NPU=k numbers the unit (default 0), -D
// NEXT=j names the unit forwarded packets go to (default 1).
define($NPU 0, $NEXT 1, $MTU 1500);

eth :: FromDevice(0);
toeth :: ToDevice(0);
toswitch :: ToDevice(1);
tome :: Discard;
damaged :: Discard;

c0 :: Classifier(12/0806 20/0001, 12/0806 20/0002, 12/0800, -);
eth -> c0;
c0[0] -> ARPResponder(18.26.4.24 00:00:c0:ae:67:ef) -> toeth;
c0[1] -> tome;
c0[3] -> damaged;

rt :: RadixIPLookup(18.26.4.24/32 0, 18.26.4.255/32 0, 18.26.4.0/32 0,
                    18.26.4.0/24 1, 10.0.0.0/8 18.26.7.2 1,
                    192.168.0.0/16 18.26.7.3 1, 0.0.0.0/0 18.26.4.1 1);
c0[2] -> Paint(1) -> Strip(14)
      -> chk :: CheckIPHeader(INTERFACES 18.26.4.24/24)
      -> GetIPAddress(16) -> rt;
chk[1] -> damaged;
rt[0] -> tome;
rt[1] -> DropBroadcasts -> cp :: PaintTee(1) -> gio :: IPGWOptions(18.26.4.24)
      -> FixIPSrc(18.26.4.24) -> dt :: DecIPTTL -> fr :: IPFragmenter($MTU)
      -> EtherEncap(0x0800, 00:00:c0:ae:67:ef, 00:66:77:88:99:aa)
      -> SwitchEncap($NEXT, $NPU) -> toswitch;
cp[1] -> damaged;
gio[1] -> damaged;
dt[1] -> damaged;
fr[1] -> damaged;

// The matrix's straight line to the Ethernet (the paper's fromSwitch ->
// Strip(8) -> toEth); a frame with a bad header or for another unit is
// dropped.
fs :: FromSwitch($NPU, 1);
fs -> Strip(8) -> toeth;
fs[1] -> damaged;
