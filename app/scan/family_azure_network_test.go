package scan

import (
	"slices"
	"strings"
	"testing"
)

// TestAzureAnyProtocolWording: an NSG rule of protocol "*" on some ports
// is graded as tcp but its message says "any protocol", which is what it
// opens (udp too); it said "(tcp)". A Tcp rule keeps saying tcp, and "*"
// on every port stays "all traffic".
func TestAzureAnyProtocolWording(t *testing.T) {
	res := mustScan(t, `resource "azurerm_network_security_group" "app" {
  name                = "app"
  location            = "westeurope"
  resource_group_name = "rg"

  security_rule {
    name                       = "mgmt"
    priority                   = 100
    direction                  = "Inbound"
    access                     = "Allow"
    protocol                   = "*"
    source_port_range          = "*"
    destination_port_range     = "20-30"
    source_address_prefix      = "*"
    destination_address_prefix = "*"
  }

  security_rule {
    name                       = "rdp"
    priority                   = 110
    direction                  = "Inbound"
    access                     = "Allow"
    protocol                   = "*"
    source_port_range          = "*"
    destination_port_range     = "3389"
    source_address_prefix      = "Internet"
    destination_address_prefix = "*"
  }

  security_rule {
    name                       = "web"
    priority                   = 120
    direction                  = "Inbound"
    access                     = "Allow"
    protocol                   = "Tcp"
    source_port_range          = "*"
    destination_port_range     = "8000-8100"
    source_address_prefix      = "0.0.0.0/0"
    destination_address_prefix = "*"
  }
}
`)
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Resource.Name+" "+f.Location.File+":"+itoa(f.Location.StartLine)+" "+f.Message)
	}
	slices.Sort(got)
	want := []string{
		`SG_ADMIN_PORT_OPEN azurerm_network_security_group.app main.tf:14 ports 20-30 (any protocol) include 22 (SSH), open to "*" (any source, the internet included)`,
		`SG_ADMIN_PORT_OPEN azurerm_network_security_group.app main.tf:26 port 3389 (RDP) is open to the service tag "Internet" (every address outside the virtual network) over any protocol`,
		`SG_DATA_PORT_OPEN azurerm_network_security_group.app main.tf:14 ports 20-30 (any protocol) include 20 (FTP data), 21 (FTP) and 23 (Telnet), open to "*" (any source, the internet included)`,
		`SG_DATA_PORT_OPEN azurerm_network_security_group.app main.tf:38 ports 8000-8100 (tcp) include 8086 (InfluxDB), open to 0.0.0.0/0`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
