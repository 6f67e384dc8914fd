package scan

import (
	"slices"
	"testing"
)

// TestAzureStorageFirewall: a container open to anonymous reads is not
// open to the internet when its account's firewall closes it: network
// rules that deny by default (inline, or an
// azurerm_storage_account_network_rules), or public network access
// disabled. Those containers were reported as readable by "anyone on the
// internet". An account whose rules allow everything by default, or
// whose own rules allow 0.0.0.0/0, still has its container reported.
func TestAzureStorageFirewall(t *testing.T) {
	got := hclOutcome(t, `resource "azurerm_storage_account" "inline" {
  name                            = "inline"
  allow_nested_items_to_be_public = true
  network_rules {
    default_action = "Deny"
    ip_rules       = ["203.0.113.0/24"]
  }
}

resource "azurerm_storage_container" "inline" {
  name                  = "files"
  storage_account_id    = azurerm_storage_account.inline.id
  container_access_type = "blob"
}

resource "azurerm_storage_account" "separate" {
  name                            = "separate"
  allow_nested_items_to_be_public = true
}

resource "azurerm_storage_account_network_rules" "separate" {
  storage_account_id = azurerm_storage_account.separate.id
  default_action     = "Deny"
  bypass             = ["AzureServices"]
}

resource "azurerm_storage_container" "separate" {
  name                  = "files"
  storage_account_id    = azurerm_storage_account.separate.id
  container_access_type = "container"
}

resource "azurerm_storage_account" "private" {
  name                          = "private"
  public_network_access_enabled = false
}

resource "azurerm_storage_container" "private" {
  name                  = "files"
  storage_account_name  = azurerm_storage_account.private.name
  container_access_type = "container"
}

resource "azurerm_storage_account" "allow" {
  name = "allow"
  network_rules {
    default_action = "Allow"
  }
}

resource "azurerm_storage_container" "allow" {
  name                  = "files"
  storage_account_id    = azurerm_storage_account.allow.id
  container_access_type = "container"
}
`)
	want := []string{"S3_PUBLIC_READ azurerm_storage_container.allow main.tf:54"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
