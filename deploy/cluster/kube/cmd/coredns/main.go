// Command coredns is CoreDNS with only the plugins the test cluster's Corefile uses
// (deploy/cluster/up.sh): the cluster's records from the API server, nothing forwarded
// anywhere. The upstream main links every plugin (clouds, etcd, geoip...), three times the
// code to compile.
package main

import (
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/ready"
)

func main() {
	coremain.Run()
}
