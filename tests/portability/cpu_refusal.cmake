# Script mode: runs PROGRAM natively (it must decode: exit 0) and under `qemu-x86_64-static
# -cpu Nehalem`, a CPU without AVX2 (it must refuse: exit 3, naming MASSIVE_SIMD_ARCH). Both
# the exit code and the output are checked.
# Seen failing with the checks removed from client::client and page_decoder's constructor:
# under qemu the program died of SIGILL (exit 132, "Illegal instruction") instead of exiting 3.
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0 OR NOT out MATCHES "decoded 1 row")
  message(FATAL_ERROR "natively: expected exit 0 and a decoded row, got ${status}: ${out}")
endif()
execute_process(COMMAND "${QEMU}" -cpu Nehalem "${PROGRAM}" RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 3 OR NOT out MATCHES "unsupported_cpu: .*lacks .*AVX2.*MASSIVE_SIMD_ARCH=haswell")
  message(FATAL_ERROR "under ${QEMU} -cpu Nehalem: expected exit 3 and unsupported_cpu naming AVX2 and "
                      "MASSIVE_SIMD_ARCH, got ${status}: ${out}")
endif()
message(STATUS "natively decoded; as Nehalem refused: ${out}")
