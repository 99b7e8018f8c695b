# Cross-compiling for 64-bit ARM with Debian's g++-aarch64-linux-gnu and the arm64 packages of
# the dependencies (multiarch: dpkg --add-architecture arm64); tests run under
# qemu-aarch64-static. Used by scripts/aarch64.sh.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# The tests run on the arm64 packages' own loader and libc (multiarch, under /), not the cross
# toolchain's copy in /usr/aarch64-linux-gnu: that loader (2.36-8cross1) with the multiarch libc
# (2.36-9+deb12u14) hangs in pthread_create. -R reserves the guest's address space: without it
# qemu 7.2 keeps ~25 MB of page descriptors per 4 GiB page_pool region after its munmap, and
# decode_tests grew past 24 GB; with it the unmapped range is reused.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -R 64G)
# pkg-config must read the arm64 packages' .pc files only: with the host's, FindOpenSSL takes
# /usr/lib/x86_64-linux-gnu/libssl.so and the link fails ("file in wrong format").
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
