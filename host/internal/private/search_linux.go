package private

import "golang.org/x/sys/unix"

// searchFlags open a directory to look at and search, not to read: one
// this user can only search (mode 0711, as some systems make /home) opens.
const searchFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC
