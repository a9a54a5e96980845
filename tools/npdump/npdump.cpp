//===- npdump.cpp - Print a pcap as stable text ---------------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// One line per frame for FileCheck, or the count object of npgen --report
// (--summary), or the number of frames (--count). See README.md.
//
//===----------------------------------------------------------------------===//

#include "nprt/version.h"
#include "tools/common/ArgParser.h"
#include "tools/common/Output.h"
#include "tools/common/TrafficCounts.h"
#include "tools/npdump/FrameDecoder.h"
#include "tools/npdump/FramePrinter.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <pcap/pcap.h>

using namespace npcc::tools;

static const char *const HelpText = R"(usage: npdump [options] FILE

Prints each frame of the pcap FILE ('-' for stdin) as one stable line:
  0 len=60 ether 02:00:00:00:00:01 > 02:00:00:00:00:02 type=0x0800 ipv4
    10.0.0.1 > 192.168.0.2 ttl=64 proto=17 csum=ok udp 1234 > 80
(on one line). Broken fields are named: csum=bad, version=V, ihl=N,
totlen=T>A (IP total length T above the A bytes present), l4csum=bad, and
'truncated' where a header is cut. ARP prints 'arp request who-has A tell B'
or 'arp reply A is-at MAC'; other ethertypes print only type=0xNNNN.

Options:
  --summary   print the JSON count object of 'npgen --report' (without
              "seed"), counted from the bytes
  --count     print only the number of frames
  --hex       add a hex dump of each frame
  --time      add ts=SECONDS.NANOSECONDS to each line
  --help      this text
  --version   print npcc's version
)";

namespace {
struct DumpOptions {
  bool Summary = false, Count = false, Hex = false, Time = false, Help = false,
       Version = false;
  std::string File;
};
} // namespace

static std::string parseDumpOptions(int Argc, char **Argv, DumpOptions &O) {
  std::vector<Flag> Flags = {
      switchFlag("--summary", O.Summary), switchFlag("--count", O.Count),
      switchFlag("--hex", O.Hex),         switchFlag("--time", O.Time),
      switchFlag("--help", O.Help),       switchFlag("-h", O.Help),
      switchFlag("--version", O.Version),
  };
  std::vector<std::string> Operands;
  std::string Error = parseArgs(Argc, Argv, Flags, Operands);
  if (!Error.empty() || O.Help || O.Version)
    return Error;
  if (O.Summary && O.Count)
    return "--summary and --count cannot be combined";
  return takeOneOperand(Operands, O.File);
}

/// errno of the first failed write to stdout.
static int WriteErrno = 0;

/// Writes and clears \p Out; false once a write to stdout failed.
static bool flush(std::string &Out) {
  errno = 0;
  if (!WriteErrno &&
      std::fwrite(Out.data(), 1, Out.size(), stdout) != Out.size())
    WriteErrno = errno ? errno : EIO;
  Out.clear();
  return !WriteErrno;
}

/// Reads every frame of the file; returns an error ("FILE: reason") or "".
static std::string dump(const DumpOptions &O) {
  FILE *In = O.File == "-" ? stdin : std::fopen(O.File.c_str(), "rb");
  if (!In)
    return O.File + ": " + std::strerror(errno);
  char ErrBuf[PCAP_ERRBUF_SIZE] = "";
  pcap_t *Pcap = pcap_fopen_offline_with_tstamp_precision(
      In, PCAP_TSTAMP_PRECISION_NANO, ErrBuf);
  if (!Pcap) {
    if (In != stdin)
      std::fclose(In);
    return O.File + ": " + ErrBuf;
  }
  // Raw IP captures (Click's ToDump ENCAP IP) are decoded behind a
  // stand-in Ethernet header and printed without one.
  bool RawIP = pcap_datalink(Pcap) == DLT_RAW;
  if (pcap_datalink(Pcap) != DLT_EN10MB && !RawIP) {
    std::string Error = O.File + ": unsupported link type " +
                        std::to_string(pcap_datalink(Pcap)) +
                        " (expected Ethernet or raw IP)";
    pcap_close(Pcap);
    return Error;
  }

  TrafficCounts Counts;
  std::unordered_set<FlowKey, FlowKeyHash> Flows;
  PrintOptions Print{O.Hex, O.Time};
  std::string Out;
  uint64_t Index = 0;
  std::vector<uint8_t> Framed; // a raw IP packet behind a stand-in header
  pcap_pkthdr *Hdr = nullptr;
  const u_char *Data = nullptr;
  int Rc;
  while ((Rc = pcap_next_ex(Pcap, &Hdr, &Data)) == 1) {
    DecodedFrame F;
    if (RawIP) {
      uint16_t Type = Hdr->caplen && (Data[0] >> 4) == 6 ? 0x86dd : 0x0800;
      Framed.assign(14, 0);
      Framed[12] = Type >> 8;
      Framed[13] = Type & 0xff;
      Framed.insert(Framed.end(), Data, Data + Hdr->caplen);
      F = decodeFrame(Framed.data(), Framed.size());
      F.RawIP = true;
      F.Data = Data;
      F.Len = Hdr->caplen;
    } else {
      F = decodeFrame(Data, Hdr->caplen);
    }
    if (O.Summary) {
      countFrame(F, Counts, Flows);
    } else if (!O.Count) {
      uint64_t Ns =
          uint64_t(Hdr->ts.tv_sec) * 1000000000 + uint64_t(Hdr->ts.tv_usec);
      printFrame(F, Index, Ns, Print, Out);
      // Stop at the first failed write rather than decode the rest.
      if (Out.size() > (1 << 16) && !flush(Out))
        break;
    }
    ++Index;
  }
  std::string Error;
  if (!flush(Out))
    Error =
        "cannot write '<stdout>': " + std::string(std::strerror(WriteErrno));
  else if (Rc == PCAP_ERROR)
    Error = O.File + ": " + pcap_geterr(Pcap);
  pcap_close(Pcap);
  if (!Error.empty())
    return Error;
  if (O.Summary)
    std::fputs(countsToJson(Counts, std::nullopt).c_str(), stdout);
  else if (O.Count)
    std::printf("%llu\n", static_cast<unsigned long long>(Index));
  return "";
}

int main(int Argc, char **Argv) {
  DumpOptions Opts;
  std::string Error = parseDumpOptions(Argc, Argv, Opts);
  if (Error.empty() && Opts.Help) {
    std::fputs(HelpText, stdout);
    return exitAfterPrinting("npdump");
  }
  if (Error.empty() && Opts.Version) {
    std::fputs(npcc::versionText("npdump").c_str(), stdout);
    return exitAfterPrinting("npdump");
  }
  if (Error.empty())
    Error = dump(Opts);
  if (!Error.empty()) {
    std::fflush(stdout);
    printError("npdump", Error);
    return 1;
  }
  return exitAfterPrinting("npdump");
}
