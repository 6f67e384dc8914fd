package scan

import (
	"strconv"
	"testing"
)

// TestPortListOneUnknown: a firewall's ports list, or an NSG rule's
// destination_port_ranges, holding one value unknown until apply besides
// known ones (["22", var.port]) still opens the known ports; the findings
// say the list may open more instead of reading as if the list were those
// ports alone. A list of unknown values alone opens nothing the scanner
// can see.
func TestPortListOneUnknown(t *testing.T) {
	render := func(res *Result) []string {
		var out []string
		for _, f := range res.Findings {
			out = append(out, f.Rule+" "+f.Resource.Name+" line "+strconv.Itoa(f.Line)+": "+f.Message)
		}
		return out
	}
	res, err := ScanFiles([]File{{Path: "main.tf", Data: []byte(`variable "extra_port" {
  type = string
}
resource "google_compute_firewall" "ssh" {
  name    = "allow-ssh"
  network = "default"
  allow {
    protocol = "tcp"
    ports    = ["22", var.extra_port]
  }
  source_ranges = ["0.0.0.0/0"]
}
resource "google_compute_firewall" "unknown_only" {
  name    = "allow-x"
  network = "default"
  allow {
    protocol = "tcp"
    ports    = [var.extra_port]
  }
  source_ranges = ["0.0.0.0/0"]
}
resource "google_compute_firewall" "known" {
  name    = "allow-pg"
  network = "default"
  allow {
    protocol = "tcp"
    ports    = ["5432"]
  }
  source_ranges = ["0.0.0.0/0"]
}
resource "azurerm_network_security_rule" "rdp" {
  name                        = "rdp"
  priority                    = 100
  direction                   = "Inbound"
  access                      = "Allow"
  protocol                    = "Tcp"
  source_port_range           = "*"
  destination_port_ranges     = ["3389", var.extra_port]
  source_address_prefix       = "Internet"
  destination_address_prefix  = "*"
  resource_group_name         = "rg"
  network_security_group_name = "nsg"
}
`)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalStrings(t, "source", render(res), []string{
		"SG_ADMIN_PORT_OPEN google_compute_firewall.ssh line 7: port 22 (SSH) is open to 0.0.0.0/0; ports also holds a value unknown until apply, which may open more ports",
		`SG_ADMIN_PORT_OPEN azurerm_network_security_rule.rdp line 39: port 3389 (RDP) is open to the service tag "Internet" (every address outside the virtual network); destination_port_ranges also holds a value unknown until apply, which may open more ports`,
		"SG_DATA_PORT_OPEN google_compute_firewall.known line 25: port 5432 (PostgreSQL) is open to 0.0.0.0/0",
	})

	plan := `{"format_version":"1.2","terraform_version":"1.9.0",
"planned_values":{"root_module":{"resources":[
 {"address":"google_compute_firewall.ssh","mode":"managed","type":"google_compute_firewall","name":"ssh",
  "values":{"name":"allow-ssh","network":"default","direction":"INGRESS","disabled":false,
   "allow":[{"protocol":"tcp","ports":["22",null]}],"deny":[],"source_ranges":["0.0.0.0/0"]}}]}},
"resource_changes":[
 {"address":"google_compute_firewall.ssh","mode":"managed","type":"google_compute_firewall","name":"ssh","change":{"actions":["create"],
  "after":{"name":"allow-ssh","network":"default","direction":"INGRESS","disabled":false,
   "allow":[{"protocol":"tcp","ports":["22",null]}],"deny":[],"source_ranges":["0.0.0.0/0"]},
  "after_unknown":{"id":true,"allow":[{"ports":[false,true]}],"deny":[],"source_ranges":[false]}}}]}`
	equalStrings(t, "plan", render(mustScan(t, plan)), []string{
		"SG_ADMIN_PORT_OPEN google_compute_firewall.ssh line 3: port 22 (SSH) is open to 0.0.0.0/0; ports also holds a value unknown until apply, which may open more ports",
	})
}
