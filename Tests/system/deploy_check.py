# SPDX-License-Identifier: LGPL-2.1-or-later
"""deploy/: the swarm's Kubernetes Indexed Job must validate against Kubernetes' own schemas
(kubernetes-validate, strict, 1.29 and 1.37), and a field misspelt must not; its shards'
command lines, run by the real CLI with `--plan` for every completion index, must draw each
of the swarm's broadcasters exactly once; the image's XDG_DATA_HOME must be where
scripts/install puts the pipeline files, so `replaycast list` finds swarm-member there.
Run with the Python of the tools' virtual environment (it has PyYAML).
    deploy_check.py CLI PREFIX TOOLS"""
import os
import re
import subprocess
import sys
import tempfile

import yaml

from checks import check, failures

cli, prefix, tools = sys.argv[1], sys.argv[2], sys.argv[3]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
job_path = os.path.join(root, "deploy", "swarm-job.yaml")
validate = os.path.join(tools, "bin", "kubernetes-validate")


for version in ("1.29.0", "1.37.0"):
    result = subprocess.run([validate, "--strict", "-k", version, job_path], capture_output=True, text=True)
    check(f"kubernetes-validate --strict, Kubernetes {version}: the Job validates", result.returncode == 0,
          (result.stdout + result.stderr).strip())
text = open(job_path).read()
with tempfile.NamedTemporaryFile("w", suffix=".yaml") as broken:
    broken.write(text.replace("backoffLimit:", "backofLimit:"))
    broken.flush()
    result = subprocess.run([validate, "--strict", broken.name], capture_output=True, text=True)
    check("a misspelt field (backofLimit) does not validate", result.returncode != 0 and "backofLimit" in result.stdout + result.stderr,
          (result.stdout + result.stderr).strip()[-200:])

job = yaml.safe_load(text)
spec = job["spec"]
container = spec["template"]["spec"]["containers"][0]
env = {item["name"]: item["value"] for item in container["env"]}
shards = int(env["SHARDS"])
check("an Indexed Job with a pod per shard, all at once, none retried",
      spec["completionMode"] == "Indexed" and spec["completions"] == spec["parallelism"] == shards
      and spec["backoffLimit"] == 0 and spec["template"]["spec"]["restartPolicy"] == "Never",
      f"completions {spec['completions']}, parallelism {spec['parallelism']}, SHARDS {shards}")

numbers = []
for index in range(shards):
    # The pod's own command line, with the real CLI, drawing its shard without running it.
    command = container["args"][0].replace("exec replaycast ", f"exec {cli} ") + " --plan"
    result = subprocess.run(container["command"] + [command], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, JOB_COMPLETION_INDEX=str(index), **env))
    if result.returncode != 0:
        check(f"pod {index}'s command line runs", False, result.stderr.strip()[-300:])
        break
    numbers += [int(m.group(1)) for m in re.finditer(r"^\s*(\d+) ", result.stdout, re.M)]
count = int(env["COUNT"])
check(f"the {shards} pods draw each of the {count} broadcasters once", sorted(numbers) == list(range(1, count + 1)),
      f"{len(numbers)} drawn, {len(set(numbers))} distinct")

dockerfile = open(os.path.join(root, "deploy", "Dockerfile")).read()
data_home = re.search(r"XDG_DATA_HOME=(\S+)", dockerfile).group(1)
image_prefix = re.search(r"PREFIX=(\S+) scripts/install", dockerfile).group(1)
listed = subprocess.run([cli, "list"], capture_output=True, text=True, cwd=tempfile.gettempdir(),
                        env=dict(os.environ, XDG_DATA_HOME=data_home.replace(image_prefix, prefix)))
check("the image's XDG_DATA_HOME holds the installed pipeline files: replaycast list finds swarm-member",
      re.search(r"^swarm-member ", listed.stdout, re.M) is not None, listed.stdout[-300:] + listed.stderr[-200:])
sys.exit(1 if failures else 0)
