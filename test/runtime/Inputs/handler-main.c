/* The HandlerProgram tables as a program: what npcc's C target links. */
#include "HandlerProgram.h"

int main(int argc, char **argv) {
  return nprt_main(argc, argv, &nprt_test_counter_program);
}
