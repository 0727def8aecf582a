{{/*
Names and labels.
*/}}
{{- define "accord.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "accord.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "accord.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Name of a component's resources: <fullname>-<component>. Call with (list $ "gateway"). */}}
{{- define "accord.componentName" -}}
{{- $root := index . 0 }}
{{- printf "%s-%s" (include "accord.fullname" $root) (index . 1) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "accord.selectorLabels" -}}
app.kubernetes.io/name: {{ include "accord.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "accord.labels" -}}
helm.sh/chart: {{ include "accord.chart" . }}
{{ include "accord.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: accord
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Selector labels of one component. Call with (list $ "gateway"). */}}
{{- define "accord.componentSelectorLabels" -}}
{{ include "accord.selectorLabels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "accord.componentLabels" -}}
{{ include "accord.labels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "accord.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "accord.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
How the services are wired. This is the fixed runtime contract of the service code, not a
setting: which downstream addresses each service reads (calls), whether it uses MongoDB and
NATS and which secrets it gets. Env vars,
NetworkPolicies and the chart tests are all derived from it, so they cannot disagree. The
services' settings (`config` keys → env vars) are files/settings.json, derived from the services'
config schemas (test/settings.ts).
*/}}
{{- define "accord.wiring" -}}
secrets:
  adminToken: {env: ACCORD_ADMIN_TOKEN, key: admin-token}
  hashKey: {env: ACCORD_HASH_KEY, key: hash-key}
  tokenSigningKeys: {env: ACCORD_TOKEN_SIGNING_KEYS, key: token-signing-keys}
  receiptSigningKeys: {env: ACCORD_RECEIPT_SIGNING_KEYS, key: receipt-signing-keys}
  # optional: an existingSecret made before subject erasure existed lacks it (the service then
  # warns and uses its development key until the key is added)
  erasureKey: {env: ACCORD_ERASURE_KEY, key: erasure-key, optional: true}
  # each service's own identity key (gRPC authentication between Accord's services; the public
  # keys of all reach every gRPC service as ACCORD_SERVICE_PEERS, accord.env); optional: an
  # existingSecret made before them lacks them (the services then warn, and refuse each other's
  # calls until they are added)
  serviceKeys.gateway: {env: ACCORD_SERVICE_KEY, key: service-key-gateway, optional: true}
  serviceKeys.oauth: {env: ACCORD_SERVICE_KEY, key: service-key-oauth, optional: true}
  serviceKeys.consent: {env: ACCORD_SERVICE_KEY, key: service-key-consent, optional: true}
  serviceKeys.dataprocessing: {env: ACCORD_SERVICE_KEY, key: service-key-dataprocessing, optional: true}
  serviceKeys.webhook: {env: ACCORD_SERVICE_KEY, key: service-key-webhook, optional: true}
components:
  gateway:
    protocol: http
    portEnv: ACCORD_GATEWAY_PORT
    calls: [oauth, consent, dataprocessing, webhook]
    mongodb: false
    nats: false
    secrets: [serviceKeys.gateway]
  oauth:
    protocol: grpc
    portEnv: GRPC_PORT
    # not the service itself: the admin CLI's `export`, run with `kubectl exec` in its pod
    calls: [consent]
    mongodb: true
    nats: false
    secrets: [adminToken, hashKey, tokenSigningKeys, serviceKeys.oauth]
  consent:
    protocol: grpc
    portEnv: GRPC_PORT
    # platform callers (a bearer token) call it: networkPolicy.platformCallers reach its port
    platform: true
    calls: [oauth, dataprocessing]
    mongodb: true
    nats: true
    secrets: [receiptSigningKeys, erasureKey, serviceKeys.consent]
  dataprocessing:
    protocol: grpc
    portEnv: GRPC_PORT
    # platform callers (a bearer token) call it: networkPolicy.platformCallers reach its port
    platform: true
    calls: [oauth, consent]
    mongodb: true
    nats: false
    secrets: [serviceKeys.dataprocessing]
  webhook:
    protocol: grpc
    portEnv: GRPC_PORT
    # platform callers (a bearer token) call it: networkPolicy.platformCallers reach its port
    platform: true
    calls: [oauth]
    mongodb: true
    nats: true
    secrets: [serviceKeys.webhook]
{{- end }}

{{/* Component names in a stable order. */}}
{{- define "accord.componentNames" -}}
{{- $names := list }}
{{- range $name, $_ := .Values.components }}
{{- if ne $name "default" }}{{ $names = append $names $name }}{{ end }}
{{- end }}
{{- toJson (sortAlpha $names) }}
{{- end }}

{{/*
Deep merge: maps are merged key by key, anything else in the override (including false, 0
and "") replaces the base. Unlike sprig's merge, an explicit `false` in a component
overrides `true` in default. Call with (list $base $override); returns YAML.
*/}}
{{- define "accord.deepMerge" -}}
{{- $out := deepCopy (index . 0) }}
{{- range $k, $v := (index . 1) }}
{{- $cur := index $out $k }}
{{- if and (kindIs "map" $v) (kindIs "map" $cur) }}
{{- $_ := set $out $k (include "accord.deepMerge" (list $cur $v) | fromYaml) }}
{{- else }}
{{- $_ := set $out $k $v }}
{{- end }}
{{- end }}
{{- toYaml $out }}
{{- end }}

{{/* The effective values of one component (default merged under it). Call with (list $ name); returns YAML. */}}
{{- define "accord.componentValues" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- include "accord.deepMerge" (list $root.Values.components.default (index $root.Values.components $name)) }}
{{- end }}

{{/* A scalar as an env var string; whole numbers never in exponent form. */}}
{{- define "accord.envString" -}}
{{- if or (kindIs "float64" .) (kindIs "float32" .) }}
{{- if eq (float64 .) (float64 (int64 .)) }}{{ int64 . }}{{ else }}{{ . }}{{ end }}
{{- else }}
{{- toString . }}
{{- end }}
{{- end }}

{{- define "accord.image" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $c := index . 2 }}
{{- $repo := default (printf "%s/%s" $root.Values.image.repository $name) $c.image.repository }}
{{- $tag := $c.image.tag | default $root.Values.image.tag | default $root.Chart.AppVersion }}
{{- if hasPrefix "sha256:" $tag }}
{{- printf "%s@%s" $repo $tag }}
{{- else }}
{{- printf "%s:%s" $repo $tag }}
{{- end }}
{{- end }}

{{- define "accord.secretName" -}}
{{- default (include "accord.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{- define "accord.mongodbSecretName" -}}
{{- default (printf "%s-mongodb-url" (include "accord.fullname" .)) .Values.mongodb.existingSecret }}
{{- end }}

{{- define "accord.mongodbSecretKey" -}}
{{- if .Values.mongodb.existingSecret }}{{ .Values.mongodb.existingSecretKey }}{{ else }}mongo-url{{ end }}
{{- end }}

{{- define "accord.mongodbName" -}}
{{- printf "%s-mongodb" (include "accord.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "accord.natsName" -}}
{{- printf "%s-nats" (include "accord.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "accord.mongoUrl" -}}
{{- if .Values.mongodb.enabled }}
{{- printf "mongodb://%s:27017/%s?directConnection=true" (include "accord.mongodbName" .) .Values.mongodb.database }}
{{- else }}
{{- required "mongodb.url is required when mongodb.enabled is false" .Values.mongodb.url }}
{{- end }}
{{- end }}

{{- define "accord.natsUrl" -}}
{{- if .Values.nats.enabled }}
{{- printf "nats://%s:4222" (include "accord.natsName" .) }}
{{- else }}
{{- required "nats.url is required when nats.enabled is false" .Values.nats.url }}
{{- end }}
{{- end }}

{{/* Public URL of the gateway. */}}
{{- define "accord.baseUrl" -}}
{{- if .Values.baseUrl }}
{{- .Values.baseUrl | trimSuffix "/" }}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts }}
{{- $host := first .Values.ingress.hosts }}
{{- $tls := false }}
{{- range .Values.ingress.tls }}{{ if has $host .hosts }}{{ $tls = true }}{{ end }}{{ end }}
{{- printf "%s://%s" (ternary "https" "http" $tls) $host }}
{{- else }}
{{- printf "http://%s:%v" (include "accord.componentName" (list . "gateway")) (include "accord.envString" .Values.components.gateway.port) }}
{{- end }}
{{- end }}

{{/*
The env of one component, as a list of EnvVar. Call with (list $ name $values).
Order: common, own port, downstream addresses, MongoDB/NATS, secrets, typed config, then
the free-form env (which overrides any of the above by name).
*/}}
{{- define "accord.env" -}}
{{- $root := index . 0 }}
{{- $name := index . 1 }}
{{- $c := index . 2 }}
{{- $wiring := include "accord.wiring" $root | fromYaml }}
{{- $w := index $wiring.components $name }}
{{- $env := dict }}
{{- $order := list }}
{{- $_ := set $env "ACCORD_BASE_URL" (include "accord.baseUrl" $root) }}
{{- $order = append $order "ACCORD_BASE_URL" }}
{{- $_ := set $env $w.portEnv (include "accord.envString" $c.port) }}
{{- $order = append $order $w.portEnv }}
{{- range $w.calls }}
{{- $target := include "accord.componentValues" (list $root .) | fromYaml }}
{{- $var := printf "ACCORD_%s_ADDR" (upper .) }}
{{- $_ := set $env $var (printf "%s:%s" (include "accord.componentName" (list $root .)) (include "accord.envString" $target.port)) }}
{{- $order = append $order $var }}
{{- end }}
{{- if eq $name "oauth" }}
{{- /* For the admin CLI run with `kubectl exec` inside the oauth pod: its own service, and for
`admin export` (ACCORD_CONSENT_ADDR, from `calls`) the operator's service identity. */}}
{{- $_ := set $env "ACCORD_OAUTH_ADDR" (printf "127.0.0.1:%s" (include "accord.envString" $c.port)) }}
{{- $order = append $order "ACCORD_OAUTH_ADDR" }}
{{- $_ := set $env "ACCORD_ADMIN_SERVICE_KEY" (dict "valueFrom" (dict "secretKeyRef" (dict "name" (include "accord.secretName" $root) "key" "service-key-admin" "optional" true))) }}
{{- $order = append $order "ACCORD_ADMIN_SERVICE_KEY" }}
{{- end }}
{{- if $w.mongodb }}
{{- $_ := set $env "MONGO_URL" (dict "valueFrom" (dict "secretKeyRef" (dict "name" (include "accord.mongodbSecretName" $root) "key" (include "accord.mongodbSecretKey" $root)))) }}
{{- $order = append $order "MONGO_URL" }}
{{- end }}
{{- if $w.nats }}
{{- $_ := set $env "NATS_URL" (include "accord.natsUrl" $root) }}
{{- $order = append $order "NATS_URL" }}
{{- with $root.Values.nats.tls }}{{ if .secretName }}
{{- $_ := set $env "NATS_TLS_CA_FILE" "/var/run/accord/nats-tls/ca.crt" }}
{{- $order = append $order "NATS_TLS_CA_FILE" }}
{{- if .clientCertificate }}
{{- $_ := set $env "NATS_TLS_CERT_FILE" "/var/run/accord/nats-tls/tls.crt" }}
{{- $_ := set $env "NATS_TLS_KEY_FILE" "/var/run/accord/nats-tls/tls.key" }}
{{- $order = concat $order (list "NATS_TLS_CERT_FILE" "NATS_TLS_KEY_FILE") }}
{{- end }}
{{- end }}{{ end }}
{{- end }}
{{- if eq $w.protocol "grpc" }}
{{- /* the public keys of every service identity: who may call this service as which service */}}
{{- $_ := set $env "ACCORD_SERVICE_PEERS" (dict "valueFrom" (dict "secretKeyRef" (dict "name" (include "accord.secretName" $root) "key" "service-peers" "optional" true))) }}
{{- $order = append $order "ACCORD_SERVICE_PEERS" }}
{{- end }}
{{- if $root.Values.grpcTls.enabled }}
{{- /* mutual TLS: the files of the Secret <fullname>-<name>-tls (grpc-tls.yaml), mounted by the deployment */}}
{{- $dir := "/var/run/accord/grpc-tls" }}
{{- $_ := set $env "ACCORD_GRPC_TLS_CA_FILE" (printf "%s/ca.crt" $dir) }}
{{- $_ := set $env "ACCORD_GRPC_TLS_CERT_FILE" (printf "%s/tls.crt" $dir) }}
{{- $_ := set $env "ACCORD_GRPC_TLS_KEY_FILE" (printf "%s/tls.key" $dir) }}
{{- $_ := set $env "ACCORD_GRPC_TLS_REFRESH_MS" (include "accord.envString" $root.Values.grpcTls.refreshMs) }}
{{- $order = concat $order (list "ACCORD_GRPC_TLS_CA_FILE" "ACCORD_GRPC_TLS_CERT_FILE" "ACCORD_GRPC_TLS_KEY_FILE" "ACCORD_GRPC_TLS_REFRESH_MS") }}
{{- if eq $w.protocol "grpc" }}
{{- $_ := set $env "GRPC_HEALTH_PORT" (include "accord.envString" $root.Values.grpcTls.healthPort) }}
{{- $order = append $order "GRPC_HEALTH_PORT" }}
{{- end }}
{{- if eq $name "oauth" }}
{{- /* the admin CLI's export presents the admin identity's certificate */}}
{{- $_ := set $env "ACCORD_ADMIN_GRPC_TLS_CERT_FILE" "/var/run/accord/grpc-tls-admin/tls.crt" }}
{{- $_ := set $env "ACCORD_ADMIN_GRPC_TLS_KEY_FILE" "/var/run/accord/grpc-tls-admin/tls.key" }}
{{- $order = concat $order (list "ACCORD_ADMIN_GRPC_TLS_CERT_FILE" "ACCORD_ADMIN_GRPC_TLS_KEY_FILE") }}
{{- end }}
{{- end }}
{{- if and (eq $name "consent") $c.tcfGvl $c.tcfGvl.configMap }}
{{- $_ := set $env "ACCORD_TCF_GVL" "/var/run/accord/tcf-gvl/vendor-list.json" }}
{{- $order = append $order "ACCORD_TCF_GVL" }}
{{- end }}
{{- range $w.secrets }}
{{- $s := index $wiring.secrets . }}
{{- $ref := dict "name" (include "accord.secretName" $root) "key" $s.key }}
{{- if $s.optional }}{{- $_ := set $ref "optional" true }}{{- end }}
{{- $_ := set $env $s.env (dict "valueFrom" (dict "secretKeyRef" $ref)) }}
{{- $order = append $order $s.env }}
{{- end }}
{{- /* the service's settings, one key per variable (files/settings.json, from the config schemas);
a renamed key sets its old variable, which the service reads for one release with a warning */}}
{{- $settings := $root.Files.Get "files/settings.json" | fromJson }}
{{- $configMap := merge (dict) (index $settings.services $name) (index $settings.renamed $name | default dict) }}
{{- $own := (index $root.Values.components $name).config | default dict }}
{{- range $key, $value := $c.config }}
{{- $var := index $configMap $key }}
{{- if not $var }}
{{- /* a default key is for the services that read it; a component's own must be one of its settings */}}
{{- if hasKey $own $key }}
{{- fail (printf "components.%s.config.%s is not a setting of the %s service" $name $key $name) }}
{{- end }}
{{- else if not (kindIs "invalid" $value) }}
{{- $_ := set $env $var (include "accord.envString" $value) }}
{{- $order = append $order $var }}
{{- end }}
{{- end }}
{{- if has $name (list "consent" "dataprocessing" "webhook") }}
{{- /* platform callers over gRPC are held to the account limits that REST callers are held to at
the gateway: the gateway's values, one spelling (each replica enforces them for its own callers) */}}
{{- $gw := include "accord.componentValues" (list $root "gateway") | fromYaml }}
{{- range $key := list "limitAccountRps" "limitAccountBurst" "limitAppRps" "limitAppBurst" "limitEventsPerRequest" "limitEventsPerDay" }}
{{- $value := index ($gw.config | default dict) $key }}
{{- $var := index $settings.services.gateway $key }}
{{- if and (not (kindIs "invalid" $value)) (not (hasKey $env $var)) }}
{{- $_ := set $env $var (include "accord.envString" $value) }}
{{- $order = append $order $var }}
{{- end }}
{{- end }}
{{- end }}
{{- if and (eq $name "gateway") (not (hasKey $env "ACCORD_GATEWAY_REPLICAS")) }}
{{- /* each gateway replica enforces its share of the account limits */}}
{{- $_ := set $env "ACCORD_GATEWAY_REPLICAS" (include "accord.envString" (ternary $c.autoscaling.minReplicas $c.replicas $c.autoscaling.enabled | int64 | max 1)) }}
{{- $order = append $order "ACCORD_GATEWAY_REPLICAS" }}
{{- end }}
{{- if $root.Values.metrics.enabled }}
{{- $_ := set $env "METRICS_PORT" (include "accord.envString" $root.Values.metrics.port) }}
{{- else }}
{{- $_ := set $env "METRICS_PORT" "off" }}
{{- end }}
{{- $order = append $order "METRICS_PORT" }}
{{- with $root.Values.tracing.otlpEndpoint }}
{{- $_ := set $env "OTEL_EXPORTER_OTLP_ENDPOINT" . }}
{{- $_ := set $env "OTEL_TRACES_SAMPLER" "parentbased_traceidratio" }}
{{- $_ := set $env "OTEL_TRACES_SAMPLER_ARG" (include "accord.envString" $root.Values.tracing.sampleRatio) }}
{{- $order = concat $order (list "OTEL_EXPORTER_OTLP_ENDPOINT" "OTEL_TRACES_SAMPLER" "OTEL_TRACES_SAMPLER_ARG") }}
{{- end }}
{{- if and (eq $name "gateway") $root.Values.ingress.enabled (not (hasKey $env "ACCORD_TRUST_PROXY")) }}
{{- /* behind the Ingress controller: trust one proxy hop for X-Forwarded-* */}}
{{- $_ := set $env "ACCORD_TRUST_PROXY" "1" }}
{{- $order = append $order "ACCORD_TRUST_PROXY" }}
{{- end }}
{{- range $key, $value := $c.env }}
{{- if not (kindIs "invalid" $value) }}
{{- if kindIs "map" $value }}
{{- $_ := set $env $key $value }}
{{- else }}
{{- $_ := set $env $key (include "accord.envString" $value) }}
{{- end }}
{{- if not (has $key $order) }}{{ $order = append $order $key }}{{ end }}
{{- end }}
{{- end }}
{{- range $order }}
{{- $v := index $env . }}
- name: {{ . }}
{{- if kindIs "map" $v }}
{{- toYaml $v | nindent 2 }}
{{- else }}
  value: {{ $v | quote }}
{{- end }}
{{- end }}
{{- end }}
