"""Wrong Python types raise TypeError (never a crash, never a call into the core)."""
import pytest

import skillrt


class NotAPath:
    pass


BAD_CALLS = [
    (skillrt.skills_list, (), dict(category=3)),
    (skillrt.skills_list, (), dict(task_id=["t"])),
    (skillrt.skill_view, (None,), {}),
    (skillrt.skill_view, (42,), {}),
    (skillrt.skill_view, (b"deploy",), {}),
    (skillrt.skill_view, ("deploy",), dict(file_path=1.5)),
    (skillrt.skill_view, ("deploy",), dict(preprocess="no")),
    (skillrt.skill_view, ("deploy",), dict(preprocess=0)),
    (skillrt.skill_manage, (None, "x"), {}),
    (skillrt.skill_manage, ("create", 7), {}),
    (skillrt.skill_manage, ("create", "x"), dict(content=b"---")),
    (skillrt.skill_manage, ("patch", "x"), dict(old_string="a", new_string="b", replace_all="yes")),
    (skillrt.skill_manage, ("delete", "x"), dict(absorbed_into=object())),
    (skillrt.scan_skill, (12,), {}),
    (skillrt.scan_skill, (NotAPath(),), {}),
    (skillrt.scan_skill, ("/tmp",), dict(source=None)),
    (skillrt.should_allow_install, ("not a result",), {}),
    (skillrt.should_allow_install, (None,), {}),
    (skillrt.should_allow_install, (object(),), dict(force=1)),
    (skillrt.format_scan_report, ({"verdict": "safe"},), {}),
    (skillrt.build_skills_system_prompt, (), dict(available_tools="terminal")),
    (skillrt.build_skills_system_prompt, (), dict(available_tools=[1, 2])),
    (skillrt.build_skills_system_prompt, (), dict(available_toolsets=5)),
    (skillrt.build_skills_system_prompt, (), dict(compact_categories=[None])),
    (skillrt.build_skill_invocation_message, (None,), {}),
    (skillrt.build_skill_invocation_message, ("/x",), dict(user_instruction=3)),
    (skillrt.build_skill_invocation_message, ("/x",), dict(runtime_note=[])),
    (skillrt.resolve_skill_command_key, (None,), {}),
    (skillrt.configure, (), dict(home=3)),
    (skillrt.configure, (), dict(user=5)),
    (skillrt.clear_skills_system_prompt_cache, (), dict(clear_snapshot="yes")),
    (skillrt.skill_view, (), {}),  # missing argument
    (skillrt.skills_list, ("a", "b", "c"), {}),  # too many
]


@pytest.mark.parametrize("function,args,kwargs", BAD_CALLS)
def test_wrong_type_raises_type_error(home, function, args, kwargs):
    with pytest.raises(TypeError):
        function(*args, **kwargs)


def test_lone_surrogate_is_a_python_error_not_a_crash(home):
    with pytest.raises(UnicodeError):
        skillrt.skill_view("bad\udc80name")


def test_embedded_nul_is_refused_as_json(home):
    import json
    answer = json.loads(skillrt.skill_view("dep\x00loy"))
    assert answer["success"] is False


def test_hermes_style_scan_result_is_accepted(home):
    class HermesScanResult:  # the shape of Hermes' dataclass
        def __init__(self, trust_level, verdict, findings):
            self.trust_level, self.verdict, self.findings = trust_level, verdict, findings

    assert skillrt.should_allow_install(HermesScanResult("community", "safe", []))[0] is True
    assert skillrt.should_allow_install(HermesScanResult("community", "caution", [1]))[0] is False
    assert skillrt.should_allow_install(HermesScanResult("community", "caution", [1]), force=True)[0] is True
    allowed, reason = skillrt.should_allow_install(HermesScanResult("agent-created", "dangerous", [1, 2]))
    assert allowed is None and "confirmation" in reason.lower()
    assert skillrt.should_allow_install(HermesScanResult("trusted", "dangerous", [1]), force=True)[0] is False
    # Unknown trust → community row; unknown verdict → dangerous column.
    assert skillrt.should_allow_install(HermesScanResult("who-knows", "caution", [1]))[0] is False
    assert skillrt.should_allow_install(HermesScanResult("builtin", "weird", [1]))[0] is True
    with pytest.raises(TypeError):
        skillrt.should_allow_install(HermesScanResult(3, "safe", []))
    with pytest.raises(TypeError):
        skillrt.should_allow_install(HermesScanResult("community", "safe", 5))


def test_scan_result_is_read_only(home, tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "SKILL.md").write_text("---\nname: s\ndescription: d\n---\n\nbody\n")
    result = skillrt.scan_skill(folder)
    with pytest.raises(AttributeError):
        result.verdict = "safe"
    with pytest.raises(TypeError):
        skillrt.ScanResult()
