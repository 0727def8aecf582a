{{/*
Shared templates for the five Accord services. Each takes a context dict:
  root    the chart root ($)
  name    component name (gateway, oauth, ...)
  c       the component's effective values (components.default merged under components.<name>)
  w       the component's wiring (see accord.wiring)
components.yaml renders all of them in one loop.
*/}}

{{- define "accord.component.deployment" -}}
{{- $root := .root }}{{ $name := .name }}{{ $c := .c }}{{ $w := .w }}
{{- $tls := $root.Values.grpcTls.enabled }}
{{- $full := include "accord.fullname" $root }}
{{- /* the kubelet's gRPC probe speaks no TLS: under mutual TLS it asks a plaintext health-only port */}}
{{- $probePort := ternary $root.Values.grpcTls.healthPort $c.port $tls }}
{{- $graceMs := int64 (default 10000 $c.config.shutdownGraceMs) }}
{{- $grace := $c.terminationGracePeriodSeconds }}
{{- if kindIs "invalid" $grace }}{{ $grace = add (div (add $graceMs 999) 1000) 15 }}{{ end }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "accord.componentName" (list $root $name) }}
  labels:
    {{- include "accord.componentLabels" (list $root $name) | nindent 4 }}
spec:
  {{- if not $c.autoscaling.enabled }}
  replicas: {{ int64 $c.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "accord.componentSelectorLabels" (list $root $name) | nindent 6 }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
  template:
    metadata:
      labels:
        {{- include "accord.componentSelectorLabels" (list $root $name) | nindent 8 }}
        app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
        app.kubernetes.io/part-of: accord
        {{- with $c.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with $c.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      serviceAccountName: {{ include "accord.serviceAccountName" $root }}
      automountServiceAccountToken: {{ $root.Values.serviceAccount.automountServiceAccountToken }}
      enableServiceLinks: false
      terminationGracePeriodSeconds: {{ int64 $grace }}
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $c.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      securityContext:
        {{- toYaml $c.podSecurityContext | nindent 8 }}
      containers:
        - name: {{ $name }}
          image: {{ include "accord.image" (list $root $name $c) }}
          imagePullPolicy: {{ $c.image.pullPolicy | default $root.Values.image.pullPolicy }}
          ports:
            - name: {{ $w.protocol }}
              containerPort: {{ int64 $c.port }}
              protocol: TCP
            {{- if and $tls (eq $w.protocol "grpc") }}
            - name: grpc-health
              containerPort: {{ int64 $root.Values.grpcTls.healthPort }}
              protocol: TCP
            {{- end }}
            {{- if $root.Values.metrics.enabled }}
            - name: metrics
              containerPort: {{ int64 $root.Values.metrics.port }}
              protocol: TCP
            {{- end }}
          env:
            {{- include "accord.env" (list $root $name $c) | trim | nindent 12 }}
          {{- with $c.extraEnvFrom }}
          envFrom:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          {{- if eq $w.protocol "grpc" }}
          livenessProbe:
            grpc:
              port: {{ int64 $probePort }}
            {{- toYaml $c.probes.liveness | nindent 12 }}
          readinessProbe:
            grpc:
              port: {{ int64 $probePort }}
            {{- toYaml $c.probes.readiness | nindent 12 }}
          {{- else }}
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            {{- toYaml $c.probes.liveness | nindent 12 }}
          readinessProbe:
            httpGet:
              path: /readyz
              port: http
            {{- toYaml $c.probes.readiness | nindent 12 }}
          {{- end }}
          resources:
            {{- toYaml $c.resources | nindent 12 }}
          securityContext:
            {{- toYaml $c.securityContext | nindent 12 }}
          {{- with $c.lifecycle }}
          lifecycle:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- if $tls }}
            - name: grpc-tls
              mountPath: /var/run/accord/grpc-tls
              readOnly: true
            {{- if eq $name "oauth" }}
            - name: grpc-tls-admin
              mountPath: /var/run/accord/grpc-tls-admin
              readOnly: true
            {{- end }}
            {{- end }}
            {{- if and $w.mongodb $root.Values.mongodb.tls.secretName }}
            - name: mongodb-tls
              mountPath: /var/run/accord/mongodb-tls
              readOnly: true
            {{- end }}
            {{- if and $w.nats $root.Values.nats.tls.secretName }}
            - name: nats-tls
              mountPath: /var/run/accord/nats-tls
              readOnly: true
            {{- end }}
            {{- if and (eq $name "consent") $c.tcfGvl $c.tcfGvl.configMap }}
            - name: tcf-gvl
              mountPath: /var/run/accord/tcf-gvl
              readOnly: true
            {{- end }}
            {{- with $c.extraVolumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
        {{- if $tls }}
        {{- /* a Secret volume, not subPath: the kubelet swaps renewed certificates in place */}}
        - name: grpc-tls
          secret:
            secretName: {{ printf "%s-%s-tls" $full $name }}
        {{- if eq $name "oauth" }}
        - name: grpc-tls-admin
          secret:
            secretName: {{ printf "%s-admin-tls" $full }}
        {{- end }}
        {{- end }}
        {{- if and $w.mongodb $root.Values.mongodb.tls.secretName }}
        - name: mongodb-tls
          secret:
            secretName: {{ $root.Values.mongodb.tls.secretName }}
        {{- end }}
        {{- if and $w.nats $root.Values.nats.tls.secretName }}
        - name: nats-tls
          secret:
            secretName: {{ $root.Values.nats.tls.secretName }}
        {{- end }}
        {{- if and (eq $name "consent") $c.tcfGvl $c.tcfGvl.configMap }}
        {{- /* a ConfigMap volume, not subPath: an updated list reaches the pods, which re-read it */}}
        - name: tcf-gvl
          configMap:
            name: {{ $c.tcfGvl.configMap }}
            items:
              - key: {{ $c.tcfGvl.key }}
                path: vendor-list.json
        {{- end }}
        {{- with $c.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with $c.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $c.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $c.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $c.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- range . }}
        {{- /* a constraint without labelSelector would count no pods: default to this component's */}}
        {{- $tsc := deepCopy . }}
        {{- if not (hasKey $tsc "labelSelector") }}
        {{- $_ := set $tsc "labelSelector" (dict "matchLabels" (include "accord.componentSelectorLabels" (list $root $name) | fromYaml)) }}
        {{- end }}
        - {{- toYaml $tsc | nindent 10 }}
        {{- end }}
      {{- end }}
{{- end }}

{{- define "accord.component.service" -}}
{{- $root := .root }}{{ $name := .name }}{{ $c := .c }}{{ $w := .w }}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "accord.componentName" (list $root $name) }}
  labels:
    {{- include "accord.componentLabels" (list $root $name) | nindent 4 }}
  {{- with $c.service.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: {{ $c.service.type }}
  selector:
    {{- include "accord.componentSelectorLabels" (list $root $name) | nindent 4 }}
  ports:
    - name: {{ $w.protocol }}
      port: {{ int64 $c.port }}
      targetPort: {{ $w.protocol }}
      protocol: TCP
      {{- if eq $w.protocol "grpc" }}
      appProtocol: grpc
      {{- else }}
      appProtocol: http
      {{- end }}
    {{- if $root.Values.metrics.enabled }}
    - name: metrics
      port: {{ int64 $root.Values.metrics.port }}
      targetPort: metrics
      protocol: TCP
      appProtocol: http
    {{- end }}
{{- end }}

{{- define "accord.component.hpa" -}}
{{- $root := .root }}{{ $name := .name }}{{ $c := .c }}
{{- $a := $c.autoscaling }}
{{- if not (or $a.targetCPUUtilizationPercentage $a.targetMemoryUtilizationPercentage) }}
{{- fail (printf "components.%s.autoscaling needs targetCPUUtilizationPercentage or targetMemoryUtilizationPercentage" $name) }}
{{- end }}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "accord.componentName" (list $root $name) }}
  labels:
    {{- include "accord.componentLabels" (list $root $name) | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "accord.componentName" (list $root $name) }}
  minReplicas: {{ int64 $a.minReplicas }}
  maxReplicas: {{ int64 $a.maxReplicas }}
  metrics:
    {{- with $a.targetCPUUtilizationPercentage }}
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ int64 . }}
    {{- end }}
    {{- with $a.targetMemoryUtilizationPercentage }}
    - type: Resource
      resource:
        name: memory
        target:
          type: Utilization
          averageUtilization: {{ int64 . }}
    {{- end }}
{{- end }}

{{- define "accord.component.pdb" -}}
{{- $root := .root }}{{ $name := .name }}{{ $c := .c }}
{{- $p := $c.podDisruptionBudget }}
{{- $hasMin := not (kindIs "invalid" $p.minAvailable) }}
{{- $hasMax := not (kindIs "invalid" $p.maxUnavailable) }}
{{- if eq $hasMin $hasMax }}
{{- fail (printf "components.%s.podDisruptionBudget: set exactly one of minAvailable and maxUnavailable (the other null)" $name) }}
{{- end }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "accord.componentName" (list $root $name) }}
  labels:
    {{- include "accord.componentLabels" (list $root $name) | nindent 4 }}
spec:
  {{- if $hasMin }}
  minAvailable: {{ include "accord.intOrString" $p.minAvailable }}
  {{- else }}
  maxUnavailable: {{ include "accord.intOrString" $p.maxUnavailable }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "accord.componentSelectorLabels" (list $root $name) | nindent 6 }}
{{- end }}

{{- define "accord.intOrString" -}}
{{- if kindIs "string" . }}{{ . | quote }}{{ else }}{{ int64 . }}{{ end }}
{{- end }}

{{/*
NetworkPolicy of one component: ingress only from its callers (the gateway from
networkPolicy.gatewayFrom, or anyone; the services serving platform callers also from
networkPolicy.platformCallers; the health port from networkPolicy.healthFrom when set), egress
only to the services it calls, MongoDB, NATS, DNS and, for the webhook service, the webhook
receivers on networkPolicy.webhookEgress.
*/}}
{{- define "accord.component.networkpolicy" -}}
{{- $root := .root }}{{ $name := .name }}{{ $c := .c }}{{ $w := .w }}
{{- $wiring := include "accord.wiring" $root | fromYaml }}
{{- $np := $root.Values.networkPolicy }}
{{- $callers := list }}
{{- range $other, $ow := $wiring.components }}
{{- if has $name $ow.calls }}{{ $callers = append $callers $other }}{{ end }}
{{- end }}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "accord.componentName" (list $root $name) }}
  labels:
    {{- include "accord.componentLabels" (list $root $name) | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "accord.componentSelectorLabels" (list $root $name) | nindent 6 }}
  policyTypes: [Ingress, Egress]
  ingress:
    {{- if eq $name "gateway" }}
    - ports:
        - port: {{ $w.protocol }}
          protocol: TCP
      {{- with $np.gatewayFrom }}
      from:
        {{- toYaml . | nindent 8 }}
        {{- /* the `helm test` pod */}}
        - podSelector:
            matchLabels:
              {{- include "accord.componentSelectorLabels" (list $root "test") | nindent 14 }}
      {{- end }}
    {{- end }}
    {{- if or $callers (and $w.platform $np.platformCallers) }}
    - ports:
        - port: {{ $w.protocol }}
          protocol: TCP
      from:
        {{- range $callers }}
        - podSelector:
            matchLabels:
              {{- include "accord.componentSelectorLabels" (list $root .) | nindent 14 }}
        {{- end }}
        {{- /* platform callers (a bearer token each) on the services that serve them */}}
        {{- if $w.platform }}
        {{- with $np.platformCallers }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
        {{- end }}
    {{- end }}
    {{- /* the kubelet's probes: from the node, which the enforcers admit to its own pods anyway */}}
    {{- if and (ne $w.protocol "http") $root.Values.grpcTls.enabled $np.healthFrom }}
    - ports:
        - port: grpc-health
          protocol: TCP
      from:
        {{- toYaml $np.healthFrom | nindent 8 }}
    {{- end }}
    {{- if $root.Values.metrics.enabled }}
    - ports:
        - port: metrics
          protocol: TCP
      {{- with $np.metricsFrom }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
  egress:
    - ports:
        {{- range $np.dns.ports }}
        - port: {{ int64 . }}
          protocol: UDP
        - port: {{ int64 . }}
          protocol: TCP
        {{- end }}
      {{- with $np.dns.to }}
      to:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- range $w.calls }}
    {{- $target := include "accord.componentValues" (list $root .) | fromYaml }}
    - ports:
        - port: {{ int64 $target.port }}
          protocol: TCP
      to:
        - podSelector:
            matchLabels:
              {{- include "accord.componentSelectorLabels" (list $root .) | nindent 14 }}
    {{- end }}
    {{- if $w.mongodb }}
    {{- if $root.Values.mongodb.enabled }}
    - ports:
        - port: 27017
          protocol: TCP
      to:
        - podSelector:
            matchLabels:
              {{- include "accord.componentSelectorLabels" (list $root "mongodb") | nindent 14 }}
    {{- else }}
    - ports:
        {{- range $np.externalMongodb.ports }}
        - port: {{ int64 . }}
          protocol: TCP
        {{- end }}
      {{- with $np.externalMongodb.to }}
      to:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
    {{- end }}
    {{- if $w.nats }}
    {{- if $root.Values.nats.enabled }}
    - ports:
        - port: 4222
          protocol: TCP
      to:
        - podSelector:
            matchLabels:
              {{- include "accord.componentSelectorLabels" (list $root "nats") | nindent 14 }}
    {{- else }}
    - ports:
        {{- range $np.externalNats.ports }}
        - port: {{ int64 . }}
          protocol: TCP
        {{- end }}
      {{- with $np.externalNats.to }}
      to:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- end }}
    {{- end }}
    {{- if and (eq $name "webhook") $np.webhookEgress.ports }}
    - ports:
        {{- range $np.webhookEgress.ports }}
        - port: {{ int64 . }}
          protocol: TCP
        {{- end }}
      {{- with $np.webhookEgress.ipBlocks }}
      to:
        {{- range . }}
        - ipBlock:
            {{- toYaml . | nindent 12 }}
        {{- end }}
      {{- end }}
    {{- end }}
{{- end }}
