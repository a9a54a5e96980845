#!/bin/sh
# npcc for npsmith's tests of how a failure is classified: it runs
# $REAL_NPCC, but as $FAKE says, the C target's executable aborts
# (abort-c), reports an AddressSanitizer error and exits 1 (asan-c), or
# the HLS build dies of a signal (crash-hls).
target=
out=
prev=
for a in "$@"; do
  case "$a" in --target=*) target=${a#--target=} ;; esac
  [ "$prev" = "-o" ] && out=$a
  prev=$a
done
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
