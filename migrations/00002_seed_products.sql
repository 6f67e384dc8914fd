-- The platform's own products. The three tools are public (beta); the
-- concept and alpha entries exist so that the registry's visibility rule is
-- visible from day one: they must not appear in the public API.
-- A url that starts with "/" is a path on this deployment; the API answers
-- it as an absolute URL (PUBLIC_URL or the request's own origin).

-- +goose Up
INSERT INTO products (id, slug, name, tagline, description, category, platform_pillar, lifecycle, url, created_at, updated_at) VALUES
('prod_log-analyzer', 'log-analyzer', 'Log Analyzer',
 'Find the errors and the odd lines in a log sample in seconds.',
 'Paste a log sample, one entry per line, and the analyzer flags every line that matches a fatal, error or reliability keyword, mines the templates the lines follow, and points out the lines whose shape rarely repeats. Each analysis is stateless: nothing you paste is stored.',
 'observability', 'security', 'beta', '/logs/app', '2026-11-22 00:00:00', '2026-11-22 00:00:00'),
('prod_config-scanner', 'config-scanner', 'Config Scanner',
 'Catch public buckets, open ports and wildcard IAM before they ship.',
 'Paste a JSON list of cloud resources and get findings ranked by severity: public or unencrypted buckets and databases, security groups open to the internet, and IAM policies with wildcard actions or resources. Each finding names the resource, the rule, what is wrong and how to fix it. Results download as JSON or SARIF.',
 'security', 'security', 'beta', '/scan/app', '2026-11-22 00:00:00', '2026-11-22 00:00:00'),
('prod_gateway', 'gateway', 'LLM Gateway',
 'One governed endpoint for your LLM traffic: keys, limits, quotas and audit.',
 'A chat proxy in front of your LLM provider. Calls authenticate with an organization API key and are rate-limited, checked against the organization''s monthly token quota and written to the audit log. It speaks the Messages API, streaming included, so existing SDKs work unchanged. A playground in the browser needs no key.',
 'ai', 'ai', 'beta', '/gateway/app', '2026-11-22 00:00:00', '2026-11-22 00:00:00'),
('prod_secret-scanner', 'secret-scanner', 'Secret Scanner',
 'Find leaked credentials in code and configuration.',
 'Scans repositories and configuration for credentials such as cloud keys and tokens, and recognises checksummed tokens offline.',
 'security', 'security', 'alpha', '/secret-scanner', '2026-11-22 00:00:00', '2026-11-22 00:00:00'),
('prod_posture-monitor', 'posture-monitor', 'Posture Monitor',
 'Continuous checks of a live cloud account.',
 'Connects to a cloud account and runs the configuration scanner''s rules continuously, alerting on drift.',
 'security', 'security', 'concept', '/posture-monitor', '2026-11-22 00:00:00', '2026-11-22 00:00:00');

-- +goose Down
DELETE FROM products WHERE id IN ('prod_log-analyzer', 'prod_config-scanner', 'prod_gateway', 'prod_secret-scanner', 'prod_posture-monitor');
