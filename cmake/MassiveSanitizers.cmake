# MASSIVE_SANITIZE=ON builds everything with ASan+UBSan; MASSIVE_TSAN=ON with ThreadSanitizer
# (the two cannot share a build). Either way the allocation gates detect it (MASSIVE_SANITIZED)
# and step aside, since the sanitizer owns operator new and the C allocator.
if(MASSIVE_SANITIZE AND MASSIVE_TSAN)
  message(FATAL_ERROR "MASSIVE_SANITIZE and MASSIVE_TSAN are exclusive: configure one build of each")
endif()
if(MASSIVE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
  add_compile_definitions(MASSIVE_SANITIZED=1)
endif()
# -O1: ThreadSanitizer slows instrumented code 5-15x; unoptimised, the suites would crawl.
# OpenSSL and the compiled parts of Boost are not instrumented: tests/tsan.supp lists the
# third-party frames TSan cannot judge, and why (ctest passes it to every test labelled tsan).
if(MASSIVE_TSAN)
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -O1)
  add_link_options(-fsanitize=thread)
  add_compile_definitions(MASSIVE_SANITIZED=1)
endif()
