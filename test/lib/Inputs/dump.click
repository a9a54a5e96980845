// FromDump -> Strip(14) -> ToDump in raw IP with a snap length of 40, and
// the Ethernet frames copied to a second file.
define($IN in.pcap, $O out.pcap, $E eth.pcap);
src :: FromDump($IN, STOP true);
t :: Tee;
src -> t;
t[0] -> Strip(14) -> ToDump($O, 40, ENCAP IP);
t[1] -> ToDump($E);
