//go:build !unix

package main

// systemLink: on Windows no link (symbolic link or junction) in a PATH is
// followed.
func systemLink(string) bool { return false }

// dirID: no resident server here (it is Linux's).
func dirID(string) string { return "" }
