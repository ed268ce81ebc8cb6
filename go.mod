module github.com/rootbound/rootbound

go 1.26.8

require (
	github.com/bytecodealliance/wasmtime-go/v39 v39.0.1
	github.com/google/jsonschema-go v0.4.3
	github.com/spf13/pflag v1.1.0
	github.com/tetratelabs/wazero v1.12.0
	go.bytecodealliance.org v0.6.2
	golang.org/x/sys v0.44.0
)

require github.com/coreos/go-semver v0.3.1 // indirect
