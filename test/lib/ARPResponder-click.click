// The router's ARPResponder arguments from a Click configuration: each
// `IP[/MASK] ETH` becomes an ARPEntry (a bare address is /32), `IP/MASK
// IP/MASK ETH` shares one address; the unconnected output 1 drops the
// rest.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/clickip.py gen arp %t/in.pcap
// RUN: npcc %s --target=c -o %t/exe
// RUN: %t/exe --in %t/in.pcap --out %t/c0.pcap > %t/c.txt
// RUN: npcc %s --target=interp --in %t/in.pcap --out %t/i0.pcap > %t/i.txt
// RUN: diff %t/c.txt %t/i.txt
// RUN: cmp %t/c0.pcap %t/i0.pcap
// RUN: FileCheck %s < %t/c.txt
// RUN: python3 %S/Inputs/clickip.py check ARPResponderClick %t/in.pcap %t/c0.pcap | FileCheck %s --check-prefix=REF
FromDevice(0)
  -> ar :: ARPResponder(18.26.4.24 00:00:c0:ae:67:ef, 18.26.7.0/24 00:00:c0:ae:67:ef,
                        18.26.9.0/24 18.26.10.0/255.255.255.0 00-00-C0-4F-71-EF)
  -> ToDevice(0);
// CHECK: ar{{ +}}ARPResponder{{ +}}19{{ +}}19{{ +}}10
// CHECK: Discard:ar[1]{{ +}}Discard{{ +}}9{{ +}}0{{ +}}9
// REF: ok output 0: 10 packets
