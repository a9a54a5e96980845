// null.click - the runtime floor of bench/router.sh: Click's null
// configuration, every frame of $IN read and dropped. Compile with
//   npcc bench/null.click --target=c -o null -D IN=trace.pcap
src :: FromDump($IN, STOP true, TIMING false);
src -> Discard;
