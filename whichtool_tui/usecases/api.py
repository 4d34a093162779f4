"""The use-case layer's public types: every request, response, event and view a face reads.

A face (cli, commands/, headless/, server/, ui/) takes the typed models it passes to or gets from
a use case from here, never from the package that defines them, and calls the use cases
themselves from their modules (``usecases.run``, ``usecases.inspect`` ...). The imports are
plain: importing this module loads every model (about 0.25 s from cold, a few hundredths once
a run or the Surface has loaded its own), so start-up paths import it where a name is used,
or under ``TYPE_CHECKING`` for annotations.
"""

from __future__ import annotations

from whichtool_tui.arcade.atoms import CATALOG
from whichtool_tui.arcade.conformance import ConformanceReport
from whichtool_tui.arcade.events import AtomFinished, AtomStarted, BoutEvent, BoutStarted, WireEvent
from whichtool_tui.arcade.plan import BoutPlan
from whichtool_tui.arcade.receipt import (
    BoutReceipt,
    OperatorCall,
    WireEventModel,
    first_problem,
    validate_receipt,
)
from whichtool_tui.arcade.render import score_panel
from whichtool_tui.arcade.timeline import TapeAtom, TapeHeader, TapeView, TimelineRow
from whichtool_tui.arcade.trials import TrialSeries
from whichtool_tui.artefacts import Artefact
from whichtool_tui.discovery.options import DiscoveryOptions
from whichtool_tui.evaluation.confusion import (
    DISTRACTOR_ROW,
    HEATMAP_LEGEND,
    OUTCOME_COLUMNS,
    confusion_axes,
)
from whichtool_tui.evaluation.diff_model import DiffReport
from whichtool_tui.evaluation.engine import PreparedRun, RunInputs, RunOptions
from whichtool_tui.evaluation.events import RunEvent, RunFinished, RunPlanned, TrialFinished
from whichtool_tui.evaluation.live_tally import LiveTally
from whichtool_tui.evaluation.metrics import picked_column
from whichtool_tui.evaluation.power import PowerInputs, PowerPlan
from whichtool_tui.evaluation.power_text import power_lines
from whichtool_tui.evaluation.report_model import (
    RunReport,
    ScoredTrial,
    dump_report_json,
    js_numbers,
    wire_dict,
)
from whichtool_tui.hosts.matrix import SHORT_EFFECT, SURFACE_ROW, host_matrix
from whichtool_tui.hosts.report_model import HostVerdict
from whichtool_tui.improve.budget import ImproveBudget
from whichtool_tui.improve.events import (
    CandidateMeasured,
    CandidateProposed,
    ImproveEvent,
    LoopNote,
)
from whichtool_tui.improve.model import Candidate, ImproveReport, dump_patch_json
from whichtool_tui.providers.presets import OFFLINE_PROVIDERS, PROVIDER_NAMES
from whichtool_tui.surface.behaviour_diff_model import SurfaceDiffReport
from whichtool_tui.surface.inspect import CostedSurface
from whichtool_tui.surface.listing import ServedListing
from whichtool_tui.surface.model import NormalizedSurface
from whichtool_tui.surface.report_model import InspectReport
from whichtool_tui.surface.rule_catalog import RULES, rule_for
from whichtool_tui.surface.served import ServedTool
from whichtool_tui.targets import TargetSpec
from whichtool_tui.tasks.lint import Coverage
from whichtool_tui.tasks.model import TASK_SET_VERSION, Task, TaskSet
from whichtool_tui.usecases.batch import BatchOptions
from whichtool_tui.usecases.demo import DemoFolder
from whichtool_tui.usecases.improve import ImproveRequest, PreparedImprove
from whichtool_tui.usecases.inspect import InspectRequest, InspectResult
from whichtool_tui.usecases.options import (
    DiscoveryOverrides,
    FindabilityOverrides,
    HostOptions,
    HostOverrides,
    InspectOptions,
    InspectOverrides,
    ProviderChoice,
    ProviderOverrides,
    RunOverrides,
)
from whichtool_tui.usecases.providers import ProviderRequest
from whichtool_tui.usecases.receipts import DatasetWritten, ReceiptRead
from whichtool_tui.usecases.run import DraftPlan, RunSource, TaskSetBlockedError
from whichtool_tui.usecases.saved_runs import DiffRequest
from whichtool_tui.usecases.surface_diff import SurfaceDiffRequest
from whichtool_tui.usecases.tasks import Drafted, DraftRequest, Mutated, MutateRequest, TasksLint

__all__ = [
    "CATALOG",
    "DISTRACTOR_ROW",
    "HEATMAP_LEGEND",
    "OFFLINE_PROVIDERS",
    "OUTCOME_COLUMNS",
    "PROVIDER_NAMES",
    "RULES",
    "SHORT_EFFECT",
    "SURFACE_ROW",
    "TASK_SET_VERSION",
    "Artefact",
    "AtomFinished",
    "AtomStarted",
    "BatchOptions",
    "BoutEvent",
    "BoutPlan",
    "BoutReceipt",
    "BoutStarted",
    "Candidate",
    "CandidateMeasured",
    "CandidateProposed",
    "ConformanceReport",
    "CostedSurface",
    "Coverage",
    "DatasetWritten",
    "DemoFolder",
    "DiffReport",
    "DiffRequest",
    "DiscoveryOptions",
    "DiscoveryOverrides",
    "DraftPlan",
    "DraftRequest",
    "Drafted",
    "FindabilityOverrides",
    "HostOptions",
    "HostOverrides",
    "HostVerdict",
    "ImproveBudget",
    "ImproveEvent",
    "ImproveReport",
    "ImproveRequest",
    "InspectOptions",
    "InspectOverrides",
    "InspectReport",
    "InspectRequest",
    "InspectResult",
    "LiveTally",
    "LoopNote",
    "MutateRequest",
    "Mutated",
    "NormalizedSurface",
    "OperatorCall",
    "PowerInputs",
    "PowerPlan",
    "PreparedImprove",
    "PreparedRun",
    "ProviderChoice",
    "ProviderOverrides",
    "ProviderRequest",
    "ReceiptRead",
    "RunEvent",
    "RunFinished",
    "RunInputs",
    "RunOptions",
    "RunOverrides",
    "RunPlanned",
    "RunReport",
    "RunSource",
    "ScoredTrial",
    "ServedListing",
    "ServedTool",
    "SurfaceDiffReport",
    "SurfaceDiffRequest",
    "TapeAtom",
    "TapeHeader",
    "TapeView",
    "TargetSpec",
    "Task",
    "TaskSet",
    "TaskSetBlockedError",
    "TasksLint",
    "TimelineRow",
    "TrialFinished",
    "TrialSeries",
    "WireEvent",
    "WireEventModel",
    "confusion_axes",
    "dump_patch_json",
    "dump_report_json",
    "first_problem",
    "host_matrix",
    "js_numbers",
    "picked_column",
    "power_lines",
    "rule_for",
    "score_panel",
    "validate_receipt",
    "wire_dict",
]
