//go:build !unix

package host

// cacheOpenFlags: Windows has no FIFOs in a directory, and the file's
// type is checked once it is open.
const cacheOpenFlags = 0
