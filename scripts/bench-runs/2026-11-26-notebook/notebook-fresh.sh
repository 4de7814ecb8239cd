#!/bin/bash
# The README's notebook command (docs/REPORTS.md), as written, on a fresh clone: does JupyterLab start?
cd /tmp/fresh
set -x
date -u
git log --oneline -1
python3 -m venv .venv && .venv/bin/pip install -q -r notebooks/requirements.txt jupyterlab || exit 1
(ASALTO_REPORT=tables/reports/demo timeout 60 .venv/bin/jupyter lab notebooks/balance.ipynb --no-browser --port 8899 --ServerApp.token= > /tmp/nb-lab.log 2>&1 &)
for i in $(seq 1 40); do sleep 1; c=$(curl -s -o /dev/null -w "%{http_code}" http://127.0.0.1:8899/lab/tree/notebooks/balance.ipynb); [ "$c" = 200 ] && break; done
echo "GET /lab/tree/notebooks/balance.ipynb: HTTP $c after $i s"
grep -E "Jupyter Server|running at|ServerApp\] http" /tmp/nb-lab.log | head -3
git status --short | head -3
date -u
