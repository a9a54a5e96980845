// null.click - the null configuration (Click's FromDump -> Discard): reads
// every frame of $IN into a packet and drops it. The runtime's floor in
// bench/run.sh, against bench/peers/pcap_read.c.
FromDump($IN) -> Discard;
