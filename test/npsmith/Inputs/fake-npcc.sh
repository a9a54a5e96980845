#!/bin/sh
# npcc for npsmith's tests of how a failure is classified: it runs
# $REAL_NPCC, but as $FAKE says, the C target's executable aborts
# (abort-c), reports an AddressSanitizer error and exits 1 (asan-c), or
# the HLS build dies of a signal (crash-hls); the npsim executable (--sim)
# reports a simulation stuck (stuck-sim), prints no report (quiet-sim), or
# its build dies of a signal (crash-sim).
target=
out=
prev=
sim=
for a in "$@"; do
  case "$a" in --target=*) target=${a#--target=} ;; --sim) sim=1 ;; esac
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
if [ -n "$sim" ]; then
  case "$FAKE" in
    stuck-sim)
      printf '#!/bin/sh\necho "prog: error: npsim: the simulation stopped with 2 contexts waiting for what nothing will do" >&2\nexit 1\n' > "$out"
      chmod +x "$out"; exit 0 ;;
    quiet-sim)
      "$REAL_NPCC" "$@" || exit
      real=$(cd "$(dirname "$out")" && pwd)/$(basename "$out").real
      mv "$out" "$real"
      printf '#!/bin/sh\n"%s" "$@" | sed "/^npsim: /,\\$d"\n' "$real" > "$out"
      chmod +x "$out"; exit 0 ;;
    crash-sim) kill -SEGV $$ ;;
  esac
fi
if [ "$target" = c ] && [ -n "$out" ]; then
  case "$FAKE" in
    abort-c) printf '#!/bin/sh\nkill -ABRT $$\n' > "$out"; chmod +x "$out"; exit 0 ;;
    asan-c) printf '#!/bin/sh\necho "==1==ERROR: AddressSanitizer: heap-use-after-free" >&2\nexit 1\n' > "$out"; chmod +x "$out"; exit 0 ;;
  esac
fi
if [ "$target" = hls ] && [ "$FAKE" = crash-hls ]; then
  kill -SEGV $$
fi
exec "$REAL_NPCC" "$@"
