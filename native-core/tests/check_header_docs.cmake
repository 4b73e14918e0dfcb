# Fails unless every public declaration of the public headers carries a doc comment: the C++ counterpart of the
# Java build's doclint "missing" check (issue 21). Public means: in include/packed4j/*.h (not details/), outside
# namespace details, and for class members, in a public section. Checked, each needing a comment (/*! ... */ or
# //) on the line just above it:
#   - every C function of the C ABI (P4J_DLL), every public macro (#define P4J_...), every typedef;
#   - every class, struct and enum defined at namespace scope (the comment may sit above its template line);
#   - every public member function, member type and constant of a class. Consecutive declarations with no blank
#     line between them form a group (overloads, operator pairs, begin/end) and share the comment above the
#     group. Constructors, destructors, assignment operators and the object-type boilerplate (_type_key and the
#     P4J_DECLARE/P4J_DEFINE macros) are exempt: what they do is what C++ says they do.
# Usage: cmake -DHEADER_DIR=<include/packed4j> -P check_header_docs.cmake
file(GLOB headers "${HEADER_DIR}/*.h")
set(problems "")
set(count 0)
foreach(header IN LISTS headers)
  get_filename_component(name "${header}" NAME)
  file(STRINGS "${header}" lines)
  set(previous "")
  set(previous_is_template FALSE)
  set(in_details FALSE)
  set(in_class FALSE)
  set(section "")
  set(class_name "")
  set(line_number 0)
  foreach(line IN LISTS lines)
    math(EXPR line_number "${line_number} + 1")
    string(STRIP "${previous}" previous_stripped)
    set(documented FALSE)
    if(previous_stripped MATCHES "\\*/$" OR previous_stripped MATCHES "^//")
      set(documented TRUE)
    endif()
    set(check FALSE)
    if(line MATCHES "^namespace details {")
      set(in_details TRUE)
    elseif(in_details)
      if(line MATCHES "^}  // namespace details")
        set(in_details FALSE)
      endif()
    elseif(line MATCHES "^(class|struct|enum( class)?) ([A-Za-z_0-9]+)[^;]*$")
      # A class template's comment sits above its template line, checked there.
      set(class_name "${CMAKE_MATCH_3}")
      set(in_class TRUE)
      set(section "public")
      if(CMAKE_MATCH_1 STREQUAL "class")
        set(section "private")
      endif()
      if(NOT previous_is_template)
        set(check TRUE)
      elseif(NOT template_documented)
        string(APPEND problems "\n  ${name}:${template_line}")
        math(EXPR count "${count} + 1")
      endif()
    elseif(previous_is_template AND NOT in_class AND NOT template_documented AND NOT line MATCHES ";$"
           AND NOT line MATCHES "^[^(]*[A-Za-z_0-9>]::[A-Za-z_~]")
      # An undocumented template of a function (a class template is handled above).
      string(APPEND problems "\n  ${name}:${template_line}")
      math(EXPR count "${count} + 1")
    elseif(line MATCHES "^};")
      set(in_class FALSE)
    elseif(line MATCHES "^template ?<")
      # Checked at the next line, which says what the template declares.
      set(template_documented ${documented})
      set(template_line "${line_number}: ${line}")
    elseif(line MATCHES "^#define P4J_")
      # Consecutive definitions, or those between #if and #endif, share the comment above the first.
      if(NOT previous_stripped MATCHES "^#")
        set(check TRUE)
      endif()
    elseif(line MATCHES "^(P4J_DLL |typedef )")
      set(check TRUE)
    elseif(in_class AND line MATCHES "^ (public|private|protected):")
      set(section "${CMAKE_MATCH_1}")
    elseif(in_class AND section STREQUAL "public" AND line MATCHES "^  [A-Za-z~]")
      string(STRIP "${line}" stripped)
      set(declaration FALSE)
      if(stripped MATCHES "\\(" OR stripped MATCHES "^(using|static constexpr|template) ")
        set(declaration TRUE)
      endif()
      if(stripped MATCHES "^(return|if|for|while|//)" OR stripped MATCHES "^(virtual |explicit )?~?${class_name}\\("
         OR stripped MATCHES "operator=\\(" OR stripped MATCHES "^static constexpr const char\\* _type_key"
         OR stripped MATCHES "^P4J_(DECLARE|DEFINE)_")
        set(declaration FALSE)
      endif()
      # A member after a template line or inside a group (the line above is a declaration, not a blank line, an
      # access label or an opening brace) shares the comment above.
      if(declaration AND NOT previous_is_template
         AND (previous_stripped STREQUAL "" OR previous_stripped MATCHES "(:|{)$"))
        set(check TRUE)
      endif()
    endif()
    if(check AND NOT documented)
      string(STRIP "${line}" shown)
      string(APPEND problems "\n  ${name}:${line_number}: ${shown}")
      math(EXPR count "${count} + 1")
    endif()
    set(previous_is_template FALSE)
    if(line MATCHES "^ *template ?<")
      set(previous_is_template TRUE)
    endif()
    set(previous "${line}")
  endforeach()
endforeach()
if(count GREATER 0)
  message(FATAL_ERROR "${count} public declarations without a doc comment:${problems}")
endif()
message(STATUS "every public declaration of ${HEADER_DIR} is documented")
