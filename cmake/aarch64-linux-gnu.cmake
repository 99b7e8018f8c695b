# Cross-compiling for 64-bit ARM with Debian's g++-aarch64-linux-gnu and the arm64 packages of
# the dependencies (multiarch: dpkg --add-architecture arm64); tests run under
# qemu-aarch64-static. Used by scripts/aarch64.sh.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L /usr/aarch64-linux-gnu)
# pkg-config must read the arm64 packages' .pc files only: with the host's, FindOpenSSL takes
# /usr/lib/x86_64-linux-gnu/libssl.so and the link fails ("file in wrong format").
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
