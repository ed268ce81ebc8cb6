module github.com/rootbound/rootbound/examples/wasmtime

go 1.26.8

require (
	github.com/bytecodealliance/wasmtime-go/v39 v39.0.1
	github.com/rootbound/rootbound v0.0.0
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace github.com/rootbound/rootbound => ../..
