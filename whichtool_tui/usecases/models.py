"""The typed models, events and views the faces read, under one name the layering allows.

A face imports what a use case takes or returns from here (``RunReport``, ``TrialFinished``,
``BoutReceipt`` ...), never from the domain package that defines it, so the contract
``faces-through-usecases`` needs no exception per model. Each name is loaded from its home on
first use (PEP 562), so importing this module costs nothing: ``--version`` and the TUI's first
frame load only the models they touch, as before.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Every name below is in EXPORTS too (tests/test_import_contracts.py checks they agree).
    from whichtool_tui.arcade.atoms import CATALOG as CATALOG
    from whichtool_tui.arcade.bout import BoutPlan as BoutPlan
    from whichtool_tui.arcade.conformance import ConformanceReport as ConformanceReport
    from whichtool_tui.arcade.events import AtomFinished as AtomFinished
    from whichtool_tui.arcade.events import AtomStarted as AtomStarted
    from whichtool_tui.arcade.events import BoutEvent as BoutEvent
    from whichtool_tui.arcade.events import BoutStarted as BoutStarted
    from whichtool_tui.arcade.events import WireEvent as WireEvent
    from whichtool_tui.arcade.receipt import BoutReceipt as BoutReceipt
    from whichtool_tui.arcade.receipt import OperatorCall as OperatorCall
    from whichtool_tui.arcade.receipt import WireEventModel as WireEventModel
    from whichtool_tui.arcade.receipt import first_problem as first_problem
    from whichtool_tui.arcade.receipt import validate_receipt as validate_receipt
    from whichtool_tui.arcade.render import score_panel as score_panel
    from whichtool_tui.arcade.series_render import render_conformance as render_conformance
    from whichtool_tui.arcade.series_render import render_series as render_series
    from whichtool_tui.arcade.timeline import TapeAtom as TapeAtom
    from whichtool_tui.arcade.timeline import TapeHeader as TapeHeader
    from whichtool_tui.arcade.timeline import TapeView as TapeView
    from whichtool_tui.arcade.timeline import TimelineRow as TimelineRow
    from whichtool_tui.arcade.trials import TrialSeries as TrialSeries
    from whichtool_tui.artefacts import Artefact as Artefact
    from whichtool_tui.discovery.deferred_run import DiscoveryOptions as DiscoveryOptions
    from whichtool_tui.evaluation.confusion import DISTRACTOR_ROW as DISTRACTOR_ROW
    from whichtool_tui.evaluation.confusion import HEATMAP_LEGEND as HEATMAP_LEGEND
    from whichtool_tui.evaluation.confusion import OUTCOME_COLUMNS as OUTCOME_COLUMNS
    from whichtool_tui.evaluation.confusion import confusion_axes as confusion_axes
    from whichtool_tui.evaluation.diff_model import DiffReport as DiffReport
    from whichtool_tui.evaluation.engine import PreparedRun as PreparedRun
    from whichtool_tui.evaluation.engine import RunInputs as RunInputs
    from whichtool_tui.evaluation.engine import RunOptions as RunOptions
    from whichtool_tui.evaluation.events import RunEvent as RunEvent
    from whichtool_tui.evaluation.events import RunFinished as RunFinished
    from whichtool_tui.evaluation.events import RunPlanned as RunPlanned
    from whichtool_tui.evaluation.events import TrialFinished as TrialFinished
    from whichtool_tui.evaluation.live_tally import LiveTally as LiveTally
    from whichtool_tui.evaluation.metrics import picked_column as picked_column
    from whichtool_tui.evaluation.power import PowerPlan as PowerPlan
    from whichtool_tui.evaluation.power_text import power_lines as power_lines
    from whichtool_tui.evaluation.report_model import RunReport as RunReport
    from whichtool_tui.evaluation.report_model import ScoredTrial as ScoredTrial
    from whichtool_tui.evaluation.report_model import dump_report_json as dump_report_json
    from whichtool_tui.evaluation.report_model import js_numbers as js_numbers
    from whichtool_tui.evaluation.report_model import wire_dict as wire_dict
    from whichtool_tui.hosts.matrix import SHORT_EFFECT as SHORT_EFFECT
    from whichtool_tui.hosts.matrix import SURFACE_ROW as SURFACE_ROW
    from whichtool_tui.hosts.matrix import host_matrix as host_matrix
    from whichtool_tui.hosts.report_model import HostVerdict as HostVerdict
    from whichtool_tui.improve.budget import ImproveBudget as ImproveBudget
    from whichtool_tui.improve.events import CandidateMeasured as CandidateMeasured
    from whichtool_tui.improve.events import CandidateProposed as CandidateProposed
    from whichtool_tui.improve.events import ImproveEvent as ImproveEvent
    from whichtool_tui.improve.events import LoopNote as LoopNote
    from whichtool_tui.improve.model import Candidate as Candidate
    from whichtool_tui.improve.model import ImproveReport as ImproveReport
    from whichtool_tui.improve.model import dump_patch_json as dump_patch_json
    from whichtool_tui.providers.presets import OFFLINE_PROVIDERS as OFFLINE_PROVIDERS
    from whichtool_tui.providers.presets import PROVIDER_NAMES as PROVIDER_NAMES
    from whichtool_tui.surface.listing import ServedListing as ServedListing
    from whichtool_tui.surface.model import NormalizedSurface as NormalizedSurface
    from whichtool_tui.surface.report_model import InspectReport as InspectReport
    from whichtool_tui.surface.rule_catalog import RULES as RULES
    from whichtool_tui.surface.rule_catalog import rule_for as rule_for
    from whichtool_tui.targets import TargetSpec as TargetSpec
    from whichtool_tui.tasks.lint import Coverage as Coverage
    from whichtool_tui.tasks.model import TASK_SET_VERSION as TASK_SET_VERSION
    from whichtool_tui.tasks.model import Task as Task
    from whichtool_tui.tasks.model import TaskSet as TaskSet

# name -> the module that defines it, grouped by why a face needs it.
EXPORTS: dict[str, str] = {
    # Reports, options and events the use cases take and return (read field by field).
    **dict.fromkeys(
        ("RunReport", "ScoredTrial", "dump_report_json", "js_numbers", "wire_dict"),
        "whichtool_tui.evaluation.report_model",
    ),
    "DiffReport": "whichtool_tui.evaluation.diff_model",
    **dict.fromkeys(("PreparedRun", "RunInputs", "RunOptions"), "whichtool_tui.evaluation.engine"),
    **dict.fromkeys(
        ("RunEvent", "RunFinished", "RunPlanned", "TrialFinished"),
        "whichtool_tui.evaluation.events",
    ),
    "LiveTally": "whichtool_tui.evaluation.live_tally",
    "DiscoveryOptions": "whichtool_tui.discovery.deferred_run",
    "InspectReport": "whichtool_tui.surface.report_model",
    "HostVerdict": "whichtool_tui.hosts.report_model",
    **dict.fromkeys(("SHORT_EFFECT", "SURFACE_ROW", "host_matrix"), "whichtool_tui.hosts.matrix"),
    "ServedListing": "whichtool_tui.surface.listing",
    "NormalizedSurface": "whichtool_tui.surface.model",
    "TargetSpec": "whichtool_tui.targets",
    "Artefact": "whichtool_tui.artefacts",
    **dict.fromkeys(("TASK_SET_VERSION", "Task", "TaskSet"), "whichtool_tui.tasks.model"),
    "Coverage": "whichtool_tui.tasks.lint",
    **dict.fromkeys(
        ("BoutReceipt", "OperatorCall", "WireEventModel", "first_problem", "validate_receipt"),
        "whichtool_tui.arcade.receipt",
    ),
    **dict.fromkeys(
        ("AtomFinished", "AtomStarted", "BoutEvent", "BoutStarted", "WireEvent"),
        "whichtool_tui.arcade.events",
    ),
    "BoutPlan": "whichtool_tui.arcade.bout",
    "ConformanceReport": "whichtool_tui.arcade.conformance",
    "TrialSeries": "whichtool_tui.arcade.trials",
    **dict.fromkeys(
        ("TapeAtom", "TapeHeader", "TapeView", "TimelineRow"), "whichtool_tui.arcade.timeline"
    ),
    **dict.fromkeys(
        ("Candidate", "ImproveReport", "dump_patch_json"), "whichtool_tui.improve.model"
    ),
    **dict.fromkeys(
        ("CandidateMeasured", "CandidateProposed", "ImproveEvent", "LoopNote"),
        "whichtool_tui.improve.events",
    ),
    "ImproveBudget": "whichtool_tui.improve.budget",
    # Views decided once in the engine for every renderer and heatmap: the confusion axes and
    # a trial's matrix column, the power text.
    **dict.fromkeys(
        ("DISTRACTOR_ROW", "HEATMAP_LEGEND", "OUTCOME_COLUMNS", "confusion_axes"),
        "whichtool_tui.evaluation.confusion",
    ),
    "picked_column": "whichtool_tui.evaluation.metrics",
    "PowerPlan": "whichtool_tui.evaluation.power",
    "power_lines": "whichtool_tui.evaluation.power_text",
    # Plain-text renderers of bouts and series, as reports/ is for runs.
    "score_panel": "whichtool_tui.arcade.render",
    **dict.fromkeys(("render_conformance", "render_series"), "whichtool_tui.arcade.series_render"),
    # Catalogs the forms and listings show (reference data, no behaviour).
    **dict.fromkeys(("OFFLINE_PROVIDERS", "PROVIDER_NAMES"), "whichtool_tui.providers.presets"),
    **dict.fromkeys(("RULES", "rule_for"), "whichtool_tui.surface.rule_catalog"),
    "CATALOG": "whichtool_tui.arcade.atoms",
}


def __getattr__(name: str) -> object:
    """Load an exported name from its home module the first time a face asks for it."""
    home = EXPORTS.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # later look-ups skip this function
    return value
