module github.com/rootbound/rootbound/release

go 1.26.8

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/mod v0.43.0
)

require golang.org/x/text v0.14.0 // indirect
