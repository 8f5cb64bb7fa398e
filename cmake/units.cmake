# The systemd units with the paths of an installation: hookcast.service
# from systemd/hookcast.service.in (ExecStart= the installed hookcastd,
# --config= and LoadCredential= the configuration folder), and
# hookcast.socket as it is. Run by CMakeLists.txt at configure time, into
# the build folder (the tests read them there), and at install time with
# the prefix the install is given (cmake --install --prefix /usr makes a
# unit of /usr/sbin/hookcastd), into $DESTDIR and the unit folder.
#
# Given: SOURCE_DIR, OUTPUT (a folder), PREFIX, SBINDIR and SYSCONFDIR
# (relative to PREFIX or absolute), CONFDIR (empty: SYSCONFDIR/hookcast),
# and, to install, UNITDIR (empty: PREFIX/lib/systemd/system).
#
# A relative SYSCONFDIR under /usr or /usr/local is /etc: scripts/install
# and the README have always put the configuration in /etc/hookcast, for
# the /usr/local that scripts/install installs to as well.
function(hookcast_units_dir var dir)
  if(IS_ABSOLUTE "${dir}")
    set(${var} "${dir}" PARENT_SCOPE)
  elseif("${PREFIX}" STREQUAL "/")
    set(${var} "/${dir}" PARENT_SCOPE)
  else()
    set(${var} "${PREFIX}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

string(REGEX REPLACE "(.)/+$" "\\1" PREFIX "${PREFIX}")
hookcast_units_dir(HOOKCAST_SBINDIR "${SBINDIR}")
set(HOOKCAST_CONFDIR "${CONFDIR}")
if(HOOKCAST_CONFDIR STREQUAL "")
  if(NOT IS_ABSOLUTE "${SYSCONFDIR}" AND
      (PREFIX STREQUAL "/usr" OR PREFIX STREQUAL "/usr/local"))
    set(HOOKCAST_CONFDIR "/${SYSCONFDIR}/hookcast")
  else()
    hookcast_units_dir(HOOKCAST_CONFDIR "${SYSCONFDIR}/hookcast")
  endif()
endif()
configure_file(${SOURCE_DIR}/systemd/hookcast.service.in
  ${OUTPUT}/hookcast.service @ONLY)
configure_file(${SOURCE_DIR}/systemd/hookcast.socket
  ${OUTPUT}/hookcast.socket COPYONLY)

if(DEFINED UNITDIR)
  if(UNITDIR STREQUAL "")
    hookcast_units_dir(UNITDIR lib/systemd/system)
  endif()
  file(INSTALL ${OUTPUT}/hookcast.service ${OUTPUT}/hookcast.socket
    DESTINATION "${UNITDIR}"
    PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endif()
