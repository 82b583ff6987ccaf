"""The offline research writer's citation rules (issue 27: cite what the answer uses)."""

from __future__ import annotations

from lectern.application.answering.extractive_research import (
    ExtractiveResearchWriter,
    asks_for,
    named_terms,
)
from lectern.domain.research import ContextBlock


def _block(source: str, title: str, text: str, relevance: float) -> ContextBlock:
    return ContextBlock(source, f"{source}: {title}", text, relevance, source, f"{source}#0")


CHAIN = [
    _block(
        "CVE-2022-41040",
        "Microsoft Exchange Server Server-Side Request Forgery Vulnerability",
        'Microsoft Exchange Server allows for server-side request forgery. Dubbed "ProxyNotShell," '
        "this vulnerability is chainable with another one for remote code execution.",
        1.0,
    ),
    _block(
        "CVE-2022-41082",
        "Microsoft Exchange Server Remote Code Execution Vulnerability",
        "Microsoft Exchange Server contains an unspecified vulnerability that allows for "
        'authenticated remote code execution. Dubbed "ProxyNotShell," this vulnerability is '
        "chainable with another one.",
        0.97,
    ),
    _block(
        "CVE-2021-26858",
        "Microsoft Exchange Server Remote Code Execution Vulnerability",
        "Microsoft Exchange Server contains an unspecified vulnerability. It is part of an attack "
        "chain on Exchange Server.",
        0.72,
    ),
]


def _cited(question: str, blocks: list[ContextBlock]) -> list[str]:
    draft = ExtractiveResearchWriter().write("research", question, blocks, run_id="t")
    return list(dict.fromkeys(source for source, _ in draft.cited))


def test_the_kind_of_record_asked_for() -> None:
    assert asks_for("Which Exchange vulnerabilities make up the chain?") == "several"
    assert asks_for("Which technique uses DNS for command and control?") == "one"
    assert asks_for("How do adversaries clear event logs?") is None
    assert named_terms("Which SMBv1 flaw did the ProxyNotShell chain use?") == {
        "smbv1",
        "proxynotshell",
    }
    assert named_terms("which polkit vulnerabilities allow escalation") == set()


def test_a_question_asking_for_several_cites_every_sibling_of_the_named_thing() -> None:
    question = "Which Microsoft Exchange Server vulnerabilities make up the ProxyNotShell chain?"
    # Both ProxyNotShell records say the same words; the ProxyLogon-era record adds
    # "chain" but not the name the question asks about: related, not cited.
    assert _cited(question, CHAIN) == ["CVE-2022-41040", "CVE-2022-41082"]


def test_a_question_asking_for_one_cites_one_record() -> None:
    question = "Which Microsoft Exchange Server vulnerability is part of the ProxyNotShell chain?"
    assert _cited(question, CHAIN) == ["CVE-2022-41040"]


def test_a_record_the_answer_names_is_cited_with_it() -> None:
    blocks = [
        _block(
            "CVE-2023-35081",
            "Ivanti EPMM Path Traversal Vulnerability",
            "Ivanti EPMM contains a path traversal vulnerability that enables malicious file "
            "writes. It can be used in conjunction with CVE-2023-35078 to bypass authentication.",
            1.0,
        ),
        _block(
            "CVE-2023-35078",
            "Ivanti EPMM Authentication Bypass Vulnerability",
            "Ivanti EPMM contains an authentication bypass vulnerability.",
            0.7,
        ),
        _block(
            "CVE-2023-35082",
            "Ivanti EPMM Authentication Bypass Vulnerability",
            "Ivanti EPMM contains an authentication bypass vulnerability too.",
            0.65,
        ),
    ]
    question = "Which Ivanti EPMM path traversal flaw is used with an authentication bypass?"
    assert _cited(question, blocks) == ["CVE-2023-35081", "CVE-2023-35078"]


def test_of_siblings_the_search_scores_alike_the_one_holding_the_question_comes_first() -> None:
    blocks = [
        _block("CVE-1", "Windows SMB Vulnerability", "Windows SMB allows code execution.", 1.0),
        _block(
            "CVE-2",
            "Windows SMBv1 Remote Code Execution Vulnerability",
            "Windows SMBv1 server allows remote code execution through crafted packets.",
            0.95,
        ),
    ]
    question = "Which Windows SMBv1 vulnerability allows remote code execution via crafted packets?"
    assert _cited(question, blocks) == ["CVE-2"]


def test_without_a_kind_a_later_source_is_cited_only_when_it_adds_to_the_answer() -> None:
    blocks = [
        _block("T1", "NTDS", "Adversaries copy the Active Directory NTDS file for hashes.", 1.0),
        _block(
            "T2",
            "Security Account Manager",
            "Adversaries extract hashes from the Security Account Manager database.",
            0.7,
        ),
        _block("T3", "NTDS copy", "Adversaries copy the NTDS file.", 0.8),
    ]
    question = "How do adversaries get hashes from the Security Account Manager and the NTDS file?"
    assert _cited(question, blocks) == ["T1", "T2"]


def test_of_siblings_the_search_scores_alike_the_one_the_question_names_leads() -> None:
    blocks = [
        _block(
            "T1071.001",
            "Web Protocols",
            "Adversaries may communicate using protocols associated with web traffic such as HTTP.",
            0.9,
        ),
        _block(
            "T1001.003",
            "Protocol or Service Impersonation",
            "Adversaries may impersonate web services so command and control traffic blends in.",
            0.87,
        ),
    ]
    question = "How do adversaries blend command and control into web traffic over HTTP?"
    assert _cited(question, blocks) == ["T1071.001"]


def test_without_a_kind_a_related_record_sharing_common_words_is_not_cited() -> None:
    blocks = [
        _block("T1112", "Modify Registry", "The registry may be modified to evade defenses.", 0.9),
        _block("T1012", "Query Registry", "Adversaries may query the registry for payloads.", 0.7),
    ]
    question = "How do adversaries modify the registry to evade defenses and hide payloads?"
    assert _cited(question, blocks) == ["T1112"]


def test_a_link_to_a_sub_technique_does_not_name_its_parent() -> None:
    blocks = [
        _block(
            "T1496.001",
            "Compute Hijacking",
            "Adversaries mine cryptocurrency with [Compute Hijacking]"
            "(https://attack.mitre.org/techniques/T1496/001) on servers.",
            0.9,
        ),
        _block("T1496", "Resource Hijacking", "Adversaries may mine cryptocurrency.", 0.6),
    ]
    question = "Which sub-technique covers mining cryptocurrency on hijacked servers?"
    assert _cited(question, blocks) == ["T1496.001"]


def test_twins_the_texts_cannot_tell_apart_are_both_cited() -> None:
    text = "Veeam Distribution Service lets unauthenticated users reach internal API functions."
    blocks = [
        _block("CVE-2022-26501", "Veeam Remote Code Execution Vulnerability", text, 1.0),
        _block("CVE-2022-26500", "Veeam Remote Code Execution Vulnerability", text, 0.98),
        _block("CVE-2024-40711", "Veeam Deserialization Vulnerability", "Veeam API flaw.", 0.9),
    ]
    question = "Which Veeam vulnerability lets unauthenticated users reach internal API functions?"
    assert _cited(question, blocks) == ["CVE-2022-26501", "CVE-2022-26500"]


def test_a_record_of_the_same_name_adding_what_is_asked_is_a_sibling() -> None:
    title = "Zyxel Firewalls Buffer Overflow Vulnerability"
    blocks = [
        _block("CVE-2", title, "Zyxel firewalls overflow in the ID processing function.", 1.0),
        _block("CVE-1", title, "Zyxel firewalls overflow in the notification function.", 0.95),
    ]
    question = "Which Zyxel vulnerabilities are in the notification and ID processing functions?"
    assert _cited(question, blocks) == ["CVE-2", "CVE-1"]


def test_field_lines_do_not_make_a_record_a_sibling() -> None:
    blocks = [
        _block(
            "CVE-2018-0798",
            "Office Memory Corruption Vulnerability",
            "Office contains a memory corruption vulnerability. It is known to be chained with "
            "CVE-2018-0802.",
            0.96,
        ),
        _block(
            "CVE-2016-7193",
            "Office Memory Corruption Vulnerability",
            "Office contains a memory corruption vulnerability.\n"
            "Known ransomware campaign use: Unknown.",
            0.87,
        ),
    ]
    question = "Which Office memory corruption vulnerabilities are known to be chained together?"
    assert _cited(question, blocks) == ["CVE-2018-0798"]


def test_without_a_kind_the_parent_technique_is_family_not_a_source() -> None:
    blocks = [
        _block("T1543.001", "Launch Agent", "Adversaries create launch agents to persist.", 1.0),
        _block("T1543", "Create or Modify System Process", "On macOS, launchd runs them.", 0.7),
    ]
    question = "How do adversaries create launch agents on macOS to persist?"
    assert _cited(question, blocks) == ["T1543.001"]


def test_a_sibling_holding_all_the_leader_holds_and_more_leads() -> None:
    blocks = [
        _block(
            "CVE-1",
            "FortiOS SSL VPN Path Traversal Vulnerability",
            "FortiOS SSL VPN web portal has a path traversal where an attacker can download files.",
            1.0,
        ),
        _block(
            "CVE-2",
            "FortiOS Improper Authorization",
            "Under the SSL VPN web portal an attacker can modify the password.",
            0.95,
        ),
    ]
    # The first's title holds more of the question (SSL VPN), but the second holds those
    # words too, in its sentences, and also what is asked: the password change.
    question = "Which FortiOS SSL VPN web portal flaw lets an attacker modify the password?"
    assert _cited(question, blocks) == ["CVE-2"]


def test_without_names_a_later_source_stays_on_the_words_of_the_first_name() -> None:
    uaf = "CLFS Driver Use-After-Free Vulnerability"
    blocks = [
        _block("CVE-1", uaf, "The CLFS driver has a use-after-free to elevate privileges.", 0.84),
        _block("CVE-2", uaf, "The CLFS driver has a use-after-free to elevate privileges.", 0.82),
        _block(
            "CVE-3",
            "CLFS Driver Privilege Escalation Vulnerability",
            "The CLFS driver has an unspecified flaw that allows for privilege escalation.",
            0.78,
        ),
    ]
    # Lower-case shorthand writes no names: the third record adds "escalation" but is not a
    # use-after-free, the flaw the first's name and the question share.
    question = "clfs driver use-after-free local privilege escalation - which CVEs?"
    assert _cited(question, blocks) == ["CVE-1", "CVE-2"]


def test_a_sub_technique_of_the_same_parent_holding_the_other_half_is_cited() -> None:
    blocks = [
        _block(
            "T1574.011",
            "Services Registry Permissions Weakness",
            "Adversaries may abuse weak permissions on the registry keys of services.",
            1.0,
        ),
        _block(
            "T1574.010",
            "Services File Permissions Weakness",
            "Adversaries may replace service binaries that have weak permissions.",
            0.8,
        ),
        _block("T1112", "Modify Registry", "Adversaries may change registry keys.", 0.7),
    ]
    question = "How do adversaries abuse weak permissions on service binaries and registry keys?"
    assert _cited(question, blocks) == ["T1574.011", "T1574.010"]


def test_a_sub_technique_of_the_same_parent_adding_a_common_word_is_related() -> None:
    blocks = [
        _block("T1053.002", "At", "Adversaries may abuse the at utility for execution.", 1.0),
        _block(
            "T1053.003", "Cron", "Adversaries may schedule execution with the cron utility.", 0.7
        ),
    ]
    # The first's name holds none of the question's words: nothing says the question has
    # two halves, and "schedule" is a word every scheduling record holds.
    question = "how do attackers use the at utility to schedule execution"
    assert _cited(question, blocks) == ["T1053.002"]


OVERLAYFS = [
    _block(
        "CVE-1",
        "Linux Kernel Privilege Escalation Vulnerability",
        "The OverlayFS file system in the Linux kernel allows privilege escalation.",
        1.0,
    ),
    _block(
        "CVE-2",
        "Linux Kernel Privilege Escalation Vulnerability",
        "The futex_requeue function in the Linux kernel allows privilege escalation.",
        0.56,
    ),
    _block(
        "CVE-3",
        "Linux Kernel Improper Ownership Management Vulnerability",
        "A flaw in the Linux kernel OverlayFS subsystem allows a local user to escalate "
        "privileges.",
        0.52,
    ),
]


def test_asked_for_several_a_sibling_under_the_floor_holding_every_name_is_cited() -> None:
    # The search scores the second OverlayFS record at half the first (its name says
    # "Improper Ownership Management"); its sentences hold every name the question writes.
    question = "Which Linux kernel OverlayFS vulnerabilities allow privilege escalation?"
    assert _cited(question, OVERLAYFS) == ["CVE-1", "CVE-3"]
    assert _cited(question.replace("vulnerabilities", "vulnerability"), OVERLAYFS) == ["CVE-1"]


def test_a_hyphenated_name_names_each_of_its_words() -> None:
    assert named_terms("Which Linux kernel USB-audio driver flaws?") == {"linux", "usb", "audio"}
    blocks = [
        _block(
            "CVE-1", "Linux Kernel Flaw", "The Linux USB-audio driver reads out of bounds.", 1.0
        ),
        _block("CVE-2", "Linux Kernel Flaw", "The Linux USB-audio driver writes anywhere.", 0.5),
        _block("CVE-3", "Linux Kernel Flaw", "The Linux USB Video Class driver overflows.", 0.5),
    ]
    question = "Which Linux kernel USB-audio driver vulnerabilities are exploited?"
    assert _cited(question, blocks) == ["CVE-1", "CVE-2"]


def test_under_the_floor_the_other_half_is_cited_when_its_name_holds_what_it_adds() -> None:
    blocks = [
        _block(
            "T1547.004",
            "Winlogon Helper DLL",
            "Adversaries may abuse Winlogon helper DLLs to execute at logon.",
            1.0,
        ),
        _block("T1546.007", "Netsh Helper DLL", "Adversaries may use Netsh helper DLLs.", 0.48),
        _block(
            "T1547.014",
            "Active Setup",
            "Adversaries may add a Registry key to the Active Setup of the machine.",
            0.42,
        ),
        _block(
            "T1547.001",
            "Registry Run Keys",
            "Adversaries may persist through Registry run keys.",
            0.4,
        ),
    ]
    # Active Setup scores under the floor but is named for the half the answer lacks; the
    # Run Keys record adds "persist" and "through", which its name does not hold.
    question = "how do attackers persist through winlogon helper dlls and active setup"
    assert _cited(question, blocks) == ["T1547.004", "T1547.014"]


def test_a_source_under_the_floor_is_never_cited_alone() -> None:
    blocks = [
        _block("T1", "Phishing", "Messages are sent to victims.", 1.0),
        _block("T2", "Cron", "Adversaries may schedule jobs with cron.", 0.3),
    ]
    assert _cited("how do adversaries schedule cron jobs", blocks) == []
