// Package private makes and checks the directories only this user may
// write: the resident server's socket directory, the index cache and the
// compiled module's cache. What is in them is trusted (a compiled module
// is run as native code), so a directory is held to more than its own
// mode: no other user may change any directory on the way to it either.
package private

// Dir makes dir (mode 0700, and each missing parent 0700) unless it is
// there, and checks it as it opened it, a component at a time from "/",
// never by name alone (the per-system walk says how; on Windows a
// directory's mode bits say nothing of who may open it, and Dir only makes
// it): dir is a directory of this user's that no other user can open, no
// component on the way to it is a link (but, for a user other than root,
// one only root can change: the system's own layout, as /home -> var/home
// on some systems), and
// every directory above it belongs to root or this user and no one else
// can write it, unless it is sticky (/tmp) and the next one is root's or
// this user's. Then no other user can rename, replace or write into
// anything on the path, so what is named later is what was checked.
func Dir(dir string) error { return check(dir) }
