"""axe-core on a page in the browser: the copy that the PyPI package axe-playwright-python ships
(requirements-dev.in), so nothing is fetched at test time and no node_modules are needed.

``serious_violations(page)`` runs every axe rule on the page as it is now and keeps what axe
rates critical or serious; ``assert_no_serious_violations`` fails with each one printed: the
rule, its help, and the elements (selector and HTML) that break it.
"""

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

FAILING = ("critical", "serious")
_AXE = Axe()


def serious_violations(page: Page) -> list[dict]:
    """axe's critical and serious violations on ``page`` now."""
    found = _AXE.run(page).response["violations"]
    return [violation for violation in found if violation["impact"] in FAILING]


def describe(violations: list[dict], where: str = "") -> str:
    lines = []
    for violation in violations:
        lines.append(
            f"{where}{violation['id']} ({violation['impact']}): {violation['help']} [{len(violation['nodes'])}]"
        )
        for node in violation["nodes"][:5]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node['html'][:160]}")
    return "\n".join(lines)


def assert_no_serious_violations(page: Page, where: str) -> None:
    found = serious_violations(page)
    assert not found, f"axe on {where}:\n{describe(found)}"


def axe_version(page: Page) -> str:
    """The version of axe-core that ran on ``page`` (after a run)."""
    return page.evaluate("() => window.axe && window.axe.version")
