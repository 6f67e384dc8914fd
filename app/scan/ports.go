package scan

import (
	"slices"
	"strconv"
)

// service is a well-known port and what usually listens on it.
type service struct {
	port int
	name string
}

// adminPorts are the remote administration ports of CIS 5.2/5.3 and of
// Checkov's CKV_AWS_24/25, so SG_ADMIN_PORT_OPEN maps one to one to them.
var adminPorts = []service{{22, "SSH"}, {3389, "RDP"}}

// dataPorts are services that must never face the internet: databases,
// caches, search engines, message brokers, container and cluster APIs, file
// sharing, and remote access other than SSH/RDP (Telnet and FTP are
// cleartext, VNC and WinRM are remote control). Sorted by port.
var dataPorts = []service{
	{20, "FTP data"},
	{21, "FTP"},
	{23, "Telnet"},
	{111, "RPC portmapper"},
	{135, "Microsoft RPC"},
	{137, "NetBIOS name service"},
	{138, "NetBIOS datagram"},
	{139, "NetBIOS session"},
	{445, "SMB"},
	{1433, "Microsoft SQL Server"},
	{1434, "SQL Server Browser"},
	{1521, "Oracle Database"},
	{2049, "NFS"},
	{2181, "ZooKeeper"},
	{2375, "Docker API"},
	{2376, "Docker API (TLS)"},
	{2379, "etcd"},
	{2380, "etcd peer"},
	{3306, "MySQL"},
	{5432, "PostgreSQL"},
	{5601, "Kibana"},
	{5672, "RabbitMQ"},
	{5900, "VNC"},
	{5984, "CouchDB"},
	{5985, "WinRM"},
	{5986, "WinRM (HTTPS)"},
	{6379, "Redis"},
	{6443, "Kubernetes API"},
	{7474, "Neo4j"},
	{8086, "InfluxDB"},
	{9042, "Cassandra"},
	{9092, "Kafka"},
	{9200, "Elasticsearch"},
	{9300, "Elasticsearch transport"},
	{10250, "Kubelet API"},
	{11211, "Memcached"},
	{15672, "RabbitMQ management"},
	{27017, "MongoDB"},
	{27018, "MongoDB shard"},
	{27019, "MongoDB config server"},
}

// webPorts are meant to face the internet: no finding for them alone.
var webPorts = []service{{80, "HTTP"}, {443, "HTTPS"}}

// servicesIn returns the services of a sorted list whose port is in
// [from, to]: a sub-slice, so no allocation.
func servicesIn(list []service, from, to int) []service {
	lo, _ := slices.BinarySearchFunc(list, from, func(s service, p int) int { return s.port - p })
	hi, _ := slices.BinarySearchFunc(list, to+1, func(s service, p int) int { return s.port - p })
	return list[lo:hi]
}

// isAllPorts reports whether [from, to] is every port: 0-65535, or 1-65535
// since port 0 is reserved and tools write ranges either way.
func isAllPorts(from, to int) bool { return from <= 1 && to == 65535 }

// hasOtherPort reports whether [from, to] includes a port that is neither
// an admin, a data nor a web port.
func hasOtherPort(from, to int) bool {
	known := len(servicesIn(adminPorts, from, to)) + len(servicesIn(dataPorts, from, to)) + len(servicesIn(webPorts, from, to))
	return to-from+1 > known
}

// listServices formats services as "21 (FTP), 23 (Telnet) and 3 more".
func listServices(list []service) string {
	const shown = 4
	words := make([]string, 0, shown+1)
	for k, s := range list {
		if k == shown {
			words = append(words, strconv.Itoa(len(list)-shown)+" more")
			break
		}
		words = append(words, strconv.Itoa(s.port)+" ("+s.name+")")
	}
	return joinAnd(words)
}
