# Write the build's revision and date into OUTPUT from common/version.c.in
# (cmake -P, at every build). Given: SOURCE_DIR, OUTPUT, and REVISION
# (which wins when not empty: scripts/package builds a copy of the tree
# without its .git).
#
# The revision is git's short sha of SOURCE_DIR's HEAD, "-dirty" when a
# tracked file differs from it, and "unknown" when SOURCE_DIR is not the
# top of a git work tree (a tarball unpacked inside another repository
# must not take that repository's revision). The date is UTC and day
# only: string(TIMESTAMP) follows SOURCE_DATE_EPOCH when it is set
# (dpkg-buildpackage sets it from debian/changelog), and a date that
# changes once a day relinks the programs once a day, not at every build.
set(HOOKCAST_REVISION "${REVISION}")
if(HOOKCAST_REVISION STREQUAL "")
  set(HOOKCAST_REVISION unknown)
  find_program(GIT git)
  if(GIT)
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --show-toplevel
      OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE rc ERROR_QUIET)
    if(rc EQUAL 0)
      get_filename_component(top "${top}" REALPATH)
      get_filename_component(src "${SOURCE_DIR}" REALPATH)
    endif()
    if(rc EQUAL 0 AND top STREQUAL src)
      execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --short HEAD
        OUTPUT_VARIABLE sha OUTPUT_STRIP_TRAILING_WHITESPACE
        RESULT_VARIABLE rc ERROR_QUIET)
      execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} status --porcelain
        --untracked-files=no
        OUTPUT_VARIABLE changes RESULT_VARIABLE rc2 ERROR_QUIET)
      if(rc EQUAL 0 AND NOT sha STREQUAL "")
        set(HOOKCAST_REVISION ${sha})
        if(rc2 EQUAL 0 AND NOT changes STREQUAL "")
          string(APPEND HOOKCAST_REVISION -dirty)
        endif()
      endif()
    endif()
  endif()
endif()
string(TIMESTAMP HOOKCAST_BUILD_DATE "%Y-%m-%d" UTC)
# configure_file leaves OUTPUT as it is when nothing changed
configure_file(${SOURCE_DIR}/common/version.c.in ${OUTPUT} @ONLY)
