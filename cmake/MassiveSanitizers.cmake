# MASSIVE_SANITIZE=ON builds everything with ASan+UBSan; the allocation gates detect it
# (MASSIVE_SANITIZED) and step aside, since the sanitizer owns operator new.
if(MASSIVE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
  add_compile_definitions(MASSIVE_SANITIZED=1)
endif()
