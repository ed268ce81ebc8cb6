package rootfs

import "golang.org/x/sys/unix"

// SearchDir opens a directory to look at and to open names below, not to
// list (O_PATH): one this user may only search (mode 0711, as some systems
// make /home) opens too. A host walking a path it was given a component at
// a time opens each directory with it.
const SearchDir = unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC

// searchFlag opens a directory only to search it (open what is below),
// when it cannot be listed: O_PATH.
const searchFlag = unix.O_PATH
