// router-discard.click - examples/ipv4-router/router.click with Discard
// sinks: the six ToDump elements (out0 out1 tol bad arpin other) are
// Discards of the same names; every other line is router.click's
// (test/bench/router-discard.test checks that). The router's work without
// the cost of writing its outputs, run by npcc and by Click on the same
// file in bench/router.sh. Compile with, e.g.,
//   npcc bench/router-discard.click --target=c -o rd -D IN=trace.pcap
// eth0 18.26.4.24/24 00:00:c0:ae:67:ef; eth1 18.26.7.1/24 00:00:c0:4f:71:ef

// The front end: where packets come from and go to.
src :: FromDump($IN, STOP true, TIMING false);
out0 :: Discard;
out1 :: Discard;
tol :: Discard;
bad :: Discard;
arpin :: Discard;
other :: Discard;

// The router, exactly as specified.
define($MTU0 1500, $MTU1 1500);
c0 :: Classifier(12/0806 20/0001, 12/0806 20/0002, 12/0800, -);
src -> c0;
ar0 :: ARPResponder(18.26.4.24 00:00:c0:ae:67:ef, 18.26.7.0/24 00:00:c0:ae:67:ef);
c0[0] -> ar0 -> out0;   c0[1] -> arpin;   c0[3] -> other;
rt :: RadixIPLookup(18.26.4.24/32 0, 18.26.4.255/32 0, 18.26.4.0/32 0,
                    18.26.7.1/32 0, 18.26.7.255/32 0, 18.26.7.0/32 0,
                    18.26.4.0/24 1, 18.26.7.0/24 2,
                    10.0.0.0/8 18.26.7.2 2, 10.1.0.0/16 18.26.4.2 1,
                    192.168.0.0/16 18.26.7.3 2, 0.0.0.0/0 18.26.4.1 1);
c0[2] -> Paint(1) -> Strip(14)
      -> chk :: CheckIPHeader(INTERFACES 18.26.4.24/24 18.26.7.1/24)
      -> GetIPAddress(16) -> [0]rt;
chk[1] -> bad;
rt[0] -> tol;
rt[1] -> DropBroadcasts -> cp1 :: PaintTee(1) -> gio1 :: IPGWOptions(18.26.4.24)
      -> FixIPSrc(18.26.4.24) -> dt1 :: DecIPTTL -> fr1 :: IPFragmenter($MTU0)
      -> EtherEncap(0x0800, 00:00:c0:ae:67:ef, 00:11:22:33:44:55) -> out0;
rt[2] -> DropBroadcasts -> cp2 :: PaintTee(2) -> gio2 :: IPGWOptions(18.26.7.1)
      -> FixIPSrc(18.26.7.1) -> dt2 :: DecIPTTL -> fr2 :: IPFragmenter($MTU1)
      -> EtherEncap(0x0800, 00:00:c0:4f:71:ef, 00:66:77:88:99:aa) -> out1;
dt1[1] -> ICMPError(18.26.4.24, timeexceeded) -> rt;
dt2[1] -> ICMPError(18.26.7.1, timeexceeded) -> rt;
fr1[1] -> ICMPError(18.26.4.24, unreachable, needfrag) -> rt;
fr2[1] -> ICMPError(18.26.7.1, unreachable, needfrag) -> rt;
gio1[1] -> ICMPError(18.26.4.24, parameterproblem) -> rt;
gio2[1] -> ICMPError(18.26.7.1, parameterproblem) -> rt;
cp1[1] -> ICMPError(18.26.4.24, redirect, host) -> rt;
cp2[1] -> ICMPError(18.26.7.1, redirect, host) -> rt;
