"""The module under many threads at once: every call releases the GIL, and
concurrent list/view/manage calls on distinct skills all succeed and see
their own writes."""
import json
import threading
import time

import skillrt

THREADS = 16
ROUNDS = 4


def _content(name, version):
    return f"---\nname: {name}\ndescription: Worker skill {name} v{version}\n---\n\nStep {version} of {name}.\n"


def test_sixteen_threads_list_view_manage(sample_home):
    errors = []
    barrier = threading.Barrier(THREADS)

    def worker(index):
        name = f"worker-{index:02d}"
        try:
            barrier.wait()
            created = json.loads(skillrt.skill_manage("create", name, content=_content(name, 0), category="load"))
            assert created["success"] is True, created
            for version in range(1, ROUNDS + 1):
                viewed = json.loads(skillrt.skill_view(name))
                assert viewed["success"] is True, viewed
                assert f"Step {version - 1} of {name}." in viewed["content"]
                patched = json.loads(skillrt.skill_manage("patch", name, old_string=f"Step {version - 1} of",
                                                          new_string=f"Step {version} of"))
                assert patched["success"] is True, patched
                listed = json.loads(skillrt.skills_list())
                assert listed["success"] is True
                names = {s["name"] for s in listed["skills"]}
                assert {"deploy", "rollback", "lint-fix", name} <= names
                assert skillrt.build_skills_system_prompt().count("<available_skills>") == 1
                written = json.loads(skillrt.skill_manage("write_file", name, file_path=f"references/r{version}.md",
                                                          file_content=f"# {version}\n"))
                assert written["success"] is True, written
                served = json.loads(skillrt.skill_view(name, file_path=f"references/r{version}.md"))
                assert served["content"] == f"# {version}\n"
            final = json.loads(skillrt.skill_view(name))
            assert f"Step {ROUNDS} of {name}." in final["content"]
            assert sorted(final["linked_files"]["references"]) == [f"references/r{v}.md"
                                                                    for v in range(1, ROUNDS + 1)]
            if index % 2:
                deleted = json.loads(skillrt.skill_manage("delete", name))
                assert deleted["success"] is True, deleted
        except Exception as e:  # noqa: BLE001 - reported below with the thread's index
            errors.append((index, repr(e)))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    listed = json.loads(skillrt.skills_list(category="load"))
    assert sorted(s["name"] for s in listed["skills"]) == [f"worker-{i:02d}" for i in range(0, THREADS, 2)]
    # And the CLI sees the same home the threads left.
    cli_json, _ = sample_home.cli("list", "--category", "load")
    assert json.loads(skillrt.skills_list(category="load")) == cli_json


def test_configure_races_calls_without_tearing(sample_home, tmp_path):
    other = tmp_path / "other-home"
    stop = threading.Event()
    errors = []

    def flipper():
        while not stop.is_set():
            skillrt.configure(home=str(other))
            skillrt.configure(home=str(sample_home.root))

    def reader():
        for _ in range(50):
            count = json.loads(skillrt.skills_list()).get("count", 0)
            if count not in (0, 4):
                errors.append(count)

    flip = threading.Thread(target=flipper)
    flip.start()
    readers = [threading.Thread(target=reader) for _ in range(4)]
    for t in readers:
        t.start()
    for t in readers:
        t.join()
    stop.set()
    flip.join()
    assert errors == []


def test_a_call_releases_the_gil(home):
    # Inline shell makes one skill_view spend 1.5 s inside C++. Were the GIL
    # held, this thread could not run until the call returned, so the viewer
    # would be finished by the time this thread's half-second loop ends.
    home.write_config("skills:\n  inline_shell: true\n  inline_shell_timeout: 10\n")
    home.add_skill("slow", "slow", "Takes a while", body="Result: !`sleep 1.5; echo done`\n")
    answer = {}
    viewer = threading.Thread(target=lambda: answer.update(json.loads(skillrt.skill_view("slow"))))
    started = time.monotonic()
    viewer.start()
    ticks = 0
    while time.monotonic() - started < 0.5:
        ticks += 1
    still_inside = viewer.is_alive()
    viewer.join()
    assert still_inside, "the main thread only ran after skill_view returned: the GIL was held"
    assert answer["success"] is True
    assert "Result: done" in answer["content"]
