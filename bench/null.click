// null.click - Click's null configuration (FromDump -> Discard): every
// frame of $IN read into a packet and dropped. Run by Click 2.1 and
// compiled by npcc in bench/router.sh; against bench/peers/pcap_read.c in
// bench/run.sh.
// Compile with: npcc bench/null.click --target=c -o null -D IN=trace.pcap
src :: FromDump($IN, STOP true, TIMING false);
src -> Discard;
