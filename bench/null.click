// null.click - Click's null configuration (FromDump -> Discard): every
// frame of $IN read into a packet and dropped. The runtime's floor in
// bench/run.sh (against bench/peers/pcap_read.c) and bench/router.sh.
// Compile with: npcc bench/null.click --target=c -o null -D IN=trace.pcap
src :: FromDump($IN, STOP true, TIMING false);
src -> Discard;
