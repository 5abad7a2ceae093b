"""No cluster here: the Kubernetes manifests are validated against the Kubernetes schemas
(kubernetes-validate, strict: an unknown field is an error), the KEDA object against the scaler's
documented shape, and everything they name — commands, settings, ports, probe paths, the JetStream
stream and consumer — is checked against the code, as the compose test does."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from typer.testing import CliRunner

from memgw.common.bus import BusLayout
from memgw.common.events import Subject
from memgw.launcher.cli import app
from memgw.launcher.compose import SERVICES
from tests.deploy.test_compose import _setting_names

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
KUBERNETES = "1.33.0"
KEDA_NATS_METADATA = {  # keda.sh/docs/scalers/nats-jetstream
    "natsServerMonitoringEndpoint",
    "account",
    "stream",
    "consumer",
    "lagThreshold",
    "activationLagThreshold",
    "useHttps",
}


@functools.cache
def _parsed() -> tuple[dict[str, Any], ...]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, where PyYAML was built with it
    docs: list[dict[str, Any]] = []
    for path in sorted(K8S.glob("*.yaml")):
        if path.name != "kustomization.yaml":
            docs += [d for d in yaml.load_all(path.read_text(), Loader=loader) if d]
    return tuple(docs)


def _documents() -> list[dict[str, Any]]:
    """Every manifest, parsed once; a copy for each test, so none sees another's changes."""
    return copy.deepcopy(list(_parsed()))


def _of(kind: str) -> dict[str, dict[str, Any]]:
    return {d["metadata"]["name"]: d for d in _documents() if d["kind"] == kind}


def _containers() -> list[dict[str, Any]]:
    pods = [d["spec"]["template"]["spec"] for d in _documents() if d["kind"] in ("Deployment", "StatefulSet", "Job")]
    return [c for pod in pods for c in pod.get("containers", []) + pod.get("initContainers", [])]


def test_every_manifest_is_valid_kubernetes() -> None:
    for doc in _documents():
        if doc["apiVersion"].startswith("keda.sh/"):
            continue  # a CRD: checked below against KEDA's documented shape
        kubernetes_validate.validate(doc, KUBERNETES, strict=True)


def test_kustomize_applies_every_manifest() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert set(kustomization["resources"]) == {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}


def test_every_service_runs_as_a_deployment_with_an_existing_command() -> None:
    deployments = _of("Deployment")
    assert set(deployments) == {f"memgw-{name}" for name in SERVICES}
    for name in SERVICES:
        (container,) = deployments[f"memgw-{name}"]["spec"]["template"]["spec"]["containers"]
        assert container["args"] == ["serve", name]
        assert "limits" in container["resources"]
        assert "requests" in container["resources"]
    (job,) = _of("Job").values()
    assert job["spec"]["template"]["spec"]["containers"][0]["args"] == ["migrate"]
    runner = CliRunner()
    for container in _containers():
        if container["image"] == "memory-gateway":
            result = runner.invoke(app, [*container["args"], "--help"])
            assert result.exit_code == 0, (container["args"], result.output)


def test_every_memgw_setting_named_exists() -> None:
    named = set(_of("ConfigMap")["memgw-config"]["data"])
    for container in _containers():
        named |= {e["name"] for e in container.get("env", []) if e["name"].startswith("MEMGW_")}
    assert named
    assert named <= _setting_names(), named - _setting_names()


def test_the_gateway_is_probed_where_the_app_answers_on_the_port_it_listens_on() -> None:
    from memgw.gateway.api.health import router

    paths = {getattr(route, "path", None) for route in router.routes}
    gateway = _of("Deployment")["memgw-gateway"]["spec"]["template"]["spec"]["containers"][0]
    env = {e["name"]: e.get("value") for e in gateway["env"]}
    (port,) = gateway["ports"]
    assert int(env["MEMGW_PORT"]) == port["containerPort"]
    assert gateway["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert gateway["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert {"/readyz", "/healthz"} <= paths
    assert "memgw-gateway" in _of("PodDisruptionBudget")


@pytest.mark.parametrize("worker", ["memgw-consolidator", "memgw-sync-worker", "memgw-obsidian-bridge"])
def test_every_worker_is_probed_where_its_probe_server_answers(worker: str) -> None:
    from memgw.launcher.probes import probe_app

    paths = {getattr(route, "path", None) for route in probe_app(None).routes}  # type: ignore[arg-type]
    container = _of("Deployment")[worker]["spec"]["template"]["spec"]["containers"][0]
    env = {e["name"]: e.get("value") for e in container["env"]}
    (port,) = container["ports"]
    assert int(env["MEMGW_HEALTH_PORT"]) == port["containerPort"]
    assert env["MEMGW_HOST"] == "0.0.0.0"
    for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
        assert container[probe]["httpGet"] == {"path": path, "port": port["name"]}
        assert path in paths


def test_every_service_selects_pods_that_exist_on_ports_they_expose() -> None:
    templates = [d["spec"]["template"] for d in _documents() if d["kind"] in ("Deployment", "StatefulSet")]
    for service in _of("Service").values():
        pods = [t for t in templates if service["spec"]["selector"].items() <= t["metadata"]["labels"].items()]
        assert pods, service["metadata"]["name"]
        exposed = {p.get("name") for t in pods for c in t["spec"]["containers"] for p in c.get("ports", [])}
        exposed |= {p["containerPort"] for t in pods for c in t["spec"]["containers"] for p in c.get("ports", [])}
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in exposed, (service["metadata"]["name"], port)


def test_the_sync_worker_scales_on_the_lag_of_its_own_consumer() -> None:
    (scaled,) = _of("ScaledObject").values()
    assert scaled["spec"]["scaleTargetRef"]["name"] in _of("Deployment")
    (trigger,) = scaled["spec"]["triggers"]
    assert trigger["type"] == "nats-jetstream"
    assert set(trigger["metadata"]) <= KEDA_NATS_METADATA
    layout = BusLayout()  # the default prefix, as the manifests run it
    assert trigger["metadata"]["stream"] == layout.stream_name("SYNC")
    assert trigger["metadata"]["consumer"] == layout.durable_name("sync-worker", Subject.SYNC_REQUESTED)
    host, port = trigger["metadata"]["natsServerMonitoringEndpoint"].split(":")
    assert host.split(".")[0] in _of("Service")
    assert int(port) in {p["port"] for p in _of("Service")[host.split(".")[0]]["spec"]["ports"]}


def test_nats_is_a_three_node_jetstream_cluster_holding_three_copies() -> None:
    nats = _of("StatefulSet")["nats"]
    assert nats["spec"]["replicas"] == 3
    conf = _of("ConfigMap")["nats-config"]["data"]["nats.conf"]
    assert "jetstream" in conf
    assert conf.count("nats-route://") == 3
    assert int(_of("ConfigMap")["memgw-config"]["data"]["MEMGW_BUS_REPLICAS"]) == 3


def test_every_secret_named_is_explained_in_the_operations_page() -> None:
    readme = (ROOT / "docs" / "operations.md").read_text()
    secrets = {
        e["valueFrom"]["secretKeyRef"]["name"]
        for c in _containers()
        for e in c.get("env", [])
        if "secretKeyRef" in e.get("valueFrom", {})
    }
    assert secrets == {"memgw-secrets", "memgw-pg-app", "qdrant-apikey"}
    for name in secrets:
        assert f"`{name}`" in readme, name


def test_the_bus_requires_a_token_that_only_the_services_hold() -> None:
    """Reliability II: the manifests' NATS had no auth; any pod of the cluster could read the bus."""
    conf = _of("ConfigMap")["nats-config"]["data"]["nats.conf"]
    assert "authorization" in conf
    assert "token: $NATS_TOKEN" in conf
    [nats] = _of("StatefulSet")["nats"]["spec"]["template"]["spec"]["containers"]
    token = {e["name"]: e.get("valueFrom", {}).get("secretKeyRef") for e in nats["env"]}["NATS_TOKEN"]
    assert token == {"name": "memgw-secrets", "key": "MEMGW_NATS_TOKEN"}
    assert "MEMGW_NATS_URL" not in _of("ConfigMap")["memgw-config"]["data"]  # a URL with a token is a secret
    served = [c for c in _containers() if c.get("args", [""])[0] == "serve"]
    assert {c["args"][1] for c in served} == {"gateway", "consolidator", "sync-worker", "obsidian-bridge"}
    for c in served:
        url = {e["name"]: e.get("valueFrom", {}).get("secretKeyRef") for e in c["env"]}["MEMGW_NATS_URL"]
        assert url == {"name": "memgw-secrets", "key": "MEMGW_NATS_URL"}, c["name"]
