// Command etcd is etcd's own server main: go.etcd.io/etcd/server/v3 has replace directives, so
// `go install` refuses it, and this module requires it at the version the API server's client
// was built against.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
