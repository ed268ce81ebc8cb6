package main

// pathRule is what --help says of a PATH.
const pathRule = "  A PATH with a link at any component is refused (exit 2), as a link inside it is never followed;\n" +
	"  links in directories you cannot write (the system's own layout, e.g. macOS's /tmp) excepted. SECURITY.md has the rule.\n"
