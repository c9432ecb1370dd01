"""Accelerator and model presets: the published figures every drill draws its numbers from.

``data/hardware.yaml`` lists ``accelerators:`` and ``data/models.yaml`` lists ``models:``, one
mapping per preset, values in SI units (bytes, bytes/s, FLOP/s). Loading validates every
preset — field types and sane ranges, dense ≤ sparse ≤ …, parameter counts against
:func:`grader.estimator.transformer_params` — and raises :class:`question_bank.errors.BankError`
listing every mistake with its file, preset id, field and what to write instead.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from grader.estimator import active_params, transformer_params
from grader.estimator.derivation import recording
from question_bank.errors import BankError, BankIssue, display_path

DATA_DIR = Path(__file__).parent / "data"
HARDWARE_PATH = DATA_DIR / "hardware.yaml"
MODELS_PATH = DATA_DIR / "models.yaml"

#: How far a stated parameter count may sit from the estimator's count of the same config.
PARAM_COUNT_TOLERANCE = 0.02

#: Dense FP8 is twice dense bf16 wherever it exists; past this ratio the figure is the sparse one.
FP8_MAX_OVER_BF16 = 2.5

#: What to write for each numeric field, shown when a value is missing, mistyped or out of range.
_HINTS: dict[str, str] = {
    "memory_bytes": "bytes of device memory as a plain number, e.g. 4.0e+10 for 40 GB",
    "mem_bandwidth": "memory bandwidth in bytes/s, between 1e10 and 1e14, e.g. 1.555e+12 for 1.555 TB/s",
    "peak_flops": "dense bf16/fp16 tensor FLOP/s, between 1e12 and 1e17, e.g. 3.12e+14 for 312 TFLOP/s",
    "peak_flops_sparse": "FLOP/s with 2:4 sparsity (at least peak_flops), or leave the key out",
    "peak_int8_ops": "dense INT8 ops/s (at least peak_flops), or leave the key out",
    "peak_flops_fp8": "dense FP8 tensor FLOP/s (twice the dense bf16 peak on Hopper, Ada and MI300X), or "
    "leave the key out for a part without FP8 tensor cores",
    "peak_flops_vector": "non-tensor (vector, CUDA-core) fp32 FLOP/s, between 1e12 and 1e15 and below "
    "peak_flops, e.g. 1.95e+13 for 19.5 TFLOP/s, or leave the key out",
    "interconnect_bandwidth": "chip-to-chip bytes/s per direction, between 1e9 and 1e13, e.g. 3.0e+11 "
    "for NVLink 3 (600 GB/s bidirectional), or leave the key out",
    "interconnect": "the link's name, e.g. NVLink 3 (12 links) or PCIe Gen4 x16",
    "kind": "gpu or tpu",
    "bf16": "false for a part without bf16 (V100, T4: fp16 only), or leave the key out",
    "peak_verified": "false when no datasheet gives the dense peak, or leave the key out",
    "sources": "a list of citations: title and <URL>, or repo:path",
    "n_params": "the total parameter count computed from the config, as an integer",
    "n_active_params": "parameters used per token (mixture-of-experts models only)",
    "gated_mlp": "true for SwiGLU/GeGLU MLPs (three matrices), false for a plain two-matrix MLP",
    "tied_embeddings": "true when the LM head reuses the input embedding matrix",
    "max_context_tokens": "the longest context in tokens, max_position_embeddings in config.json, e.g. 4096",
    "sliding_window_tokens": "the attention window (sliding_window in config.json), or leave the key out",
    "n_shared_experts": "experts every token uses beside the routed ones (n_shared_experts in config.json)",
    "n_dense_layers": "first layers with a dense MLP (first_k_dense_replace in config.json), or leave it out",
    "dense_d_ff": "the dense layers' MLP width (intermediate_size in config.json), with n_dense_layers",
    "kv_lora_rank": "the cached KV latent's width (kv_lora_rank in config.json, 512 for DeepSeek-V3)",
    "qk_rope_head_dim": "the decoupled RoPE key's width (qk_rope_head_dim in config.json: 64 in DeepSeek-V3)",
    "q_lora_rank": "the query's low rank (q_lora_rank in config.json), or leave it out",
    "v_head_dim": "one value head's width (v_head_dim in config.json, 128 for DeepSeek-V3)",
}


class PresetProblem(ValueError):
    """A preset whose fields disagree with each other; names the field and what to write."""

    def __init__(self, field: str, message: str, hint: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.hint = hint


class _Preset(BaseModel):
    # Frozen and tuple-valued: the loaded presets are cached and shared by every caller.
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str = Field(min_length=1)
    sources: tuple[str, ...] = Field(min_length=1)
    notes: tuple[str, ...] = ()


class Accelerator(_Preset):
    """One accelerator: memory in bytes, bandwidth in bytes/s, peaks in FLOP/s (dense unless named)."""

    kind: Literal["gpu", "tpu"]
    vendor: str = Field(min_length=1)
    memory_bytes: float = Field(ge=1e9, le=1e13)
    mem_bandwidth: float = Field(ge=1e10, le=1e14)
    peak_flops: float = Field(ge=1e12, le=1e17)
    peak_flops_sparse: float | None = Field(default=None, ge=1e12, le=1e17)
    peak_int8_ops: float | None = Field(default=None, ge=1e12, le=1e17)
    #: Dense FP8 tensor FLOP/s, on parts with FP8 tensor cores (W8A8 / FP8 compute).
    peak_flops_fp8: float | None = Field(default=None, ge=1e12, le=1e17)
    #: fp32 on the vector units (CUDA cores), where element-wise kernels run.
    peak_flops_vector: float | None = Field(default=None, ge=1e12, le=1e15)
    #: Bytes/s one chip sends to its peers while receiving as much (one direction of the link).
    interconnect_bandwidth: float | None = Field(default=None, ge=1e9, le=1e13)
    interconnect: str | None = Field(default=None, min_length=1)
    #: Whether the part computes in bf16 (V100 and T4 have fp16 tensor cores only).
    bf16: bool = True
    #: Whether the part has FP8 tensor cores (Hopper, Ada, CDNA 3); None: as a dense FP8 peak says.
    fp8: bool | None = None
    #: Whether the part has INT8 tensor math (Turing on; not V100); None: as a listed INT8 peak says.
    int8: bool | None = None
    #: Whether the dense peak comes from the vendor's datasheet; an unverified one stays out of compute.
    peak_verified: bool = True

    @property
    def has_fp8(self) -> bool:
        """Whether FP8 exists on the part: stated, or a dense FP8 peak is listed."""
        return self.fp8 if self.fp8 is not None else self.peak_flops_fp8 is not None

    @property
    def has_int8(self) -> bool:
        """Whether INT8 tensor math exists on the part: stated, or a dense INT8 peak is listed."""
        return self.int8 if self.int8 is not None else self.peak_int8_ops is not None

    @model_validator(mode="after")
    def _peaks_ordered(self) -> Accelerator:
        if self.peak_flops_sparse is not None and self.peak_flops_sparse < self.peak_flops:
            raise PresetProblem(
                "peak_flops_sparse",
                f"{self.peak_flops_sparse:.4g} is below the dense peak_flops {self.peak_flops:.4g}",
                "the sparse figure (twice the dense one on NVIDIA parts), or swap the two if the "
                "dense value was entered as sparse",
            )
        if self.peak_int8_ops is not None and self.peak_int8_ops < self.peak_flops:
            raise PresetProblem(
                "peak_int8_ops",
                f"{self.peak_int8_ops:.4g} is below the dense bf16 peak_flops {self.peak_flops:.4g}",
                "the dense INT8 tensor rate (at least the bf16 rate), or leave the key out",
            )
        self._fp8_dense()
        if self.peak_flops_vector is not None and self.peak_flops_vector >= self.peak_flops:
            raise PresetProblem(
                "peak_flops_vector",
                f"{self.peak_flops_vector:.4g} is not below the dense tensor peak_flops "
                f"{self.peak_flops:.4g}",
                "the non-tensor fp32 figure (19.5e12 on an A100, far below the tensor rate), or leave "
                "the key out",
            )
        self._interconnect_consistent()
        return self

    def _fp8_dense(self) -> None:
        # FP8 runs at twice the bf16 rate on every part that has it; four times is the sparse FP8
        # headline that datasheets print first, so more than 2.5x is taken for a copied sparse figure.
        fp8 = self.peak_flops_fp8
        if fp8 is not None and not self.peak_flops <= fp8 <= FP8_MAX_OVER_BF16 * self.peak_flops:
            raise PresetProblem(
                "peak_flops_fp8",
                f"{fp8:.4g} is not between the dense bf16 peak_flops {self.peak_flops:.4g} and "
                f"{FP8_MAX_OVER_BF16} times it",
                "the DENSE FP8 figure (half the datasheet's 'with sparsity' headline), or leave the key out",
            )

    def _interconnect_consistent(self) -> None:
        if (self.interconnect_bandwidth is None) != (self.interconnect is None):
            raise PresetProblem(
                "interconnect",
                "interconnect and interconnect_bandwidth come together",
                "both the link's name and its bytes/s per direction, or neither",
            )
        if self.interconnect_bandwidth is not None and self.interconnect_bandwidth >= self.mem_bandwidth:
            raise PresetProblem(
                "interconnect_bandwidth",
                f"{self.interconnect_bandwidth:.4g} B/s is not below the memory bandwidth "
                f"{self.mem_bandwidth:.4g} B/s",
                "the link's bytes/s in ONE direction (half NVIDIA's bidirectional total), in B/s",
            )


class ModelConfig(_Preset):
    """One model's published config; ``n_params`` and ``n_active_params`` are counts of parameters."""

    n_layers: int = Field(ge=1)
    d_model: int = Field(ge=1)
    n_heads: int = Field(ge=1)
    n_kv_heads: int = Field(ge=1)
    head_dim: int = Field(ge=1)
    d_ff: int = Field(ge=1)
    vocab_size: int = Field(ge=1)
    n_params: int = Field(ge=1)
    n_active_params: int | None = Field(default=None, ge=1)
    n_experts: int = Field(default=1, ge=1)
    n_experts_active: int = Field(default=1, ge=1)
    gated_mlp: bool
    tied_embeddings: bool
    #: The longest context the model was built for (max_position_embeddings in config.json).
    max_context_tokens: int = Field(ge=128, le=10_000_000)
    #: The sliding attention window, where the model has one: its KV cache stops growing past it.
    sliding_window_tokens: int | None = Field(default=None, ge=1)
    #: A DeepSeek-style mixture: experts every token uses beside the routed ones (n_shared_experts),
    #: and first layers with one dense MLP of width dense_d_ff (first_k_dense_replace,
    #: intermediate_size); d_ff is then one expert's width (moe_intermediate_size).
    n_shared_experts: int = Field(default=0, ge=0)
    n_dense_layers: int = Field(default=0, ge=0)
    dense_d_ff: int | None = Field(default=None, ge=1)
    #: Multi-head latent attention (DeepSeek-V2/V3): the cached KV latent and the shared RoPE key
    #: per layer, the query's low rank and the value head's width. head_dim is then qk_nope_head_dim.
    kv_lora_rank: int | None = Field(default=None, ge=1)
    qk_rope_head_dim: int | None = Field(default=None, ge=1)
    q_lora_rank: int | None = Field(default=None, ge=1)
    v_head_dim: int | None = Field(default=None, ge=1)

    @property
    def latent_attention(self) -> bool:
        """Whether the model caches an MLA latent (its KV per token is not 2 · L · kv_heads · head_dim)."""
        return self.kv_lora_rank is not None

    def _shape(self) -> dict[str, Any]:
        return {
            "n_layers": self.n_layers,
            "d_model": self.d_model,
            "n_heads": self.n_heads,
            "n_kv_heads": self.n_kv_heads,
            "head_dim": self.head_dim,
            "d_ff": self.d_ff,
            "vocab_size": self.vocab_size,
            "gated_mlp": self.gated_mlp,
            "tied_embeddings": self.tied_embeddings,
            "n_experts": self.n_experts,
            "n_shared_experts": self.n_shared_experts,
            "n_dense_layers": self.n_dense_layers,
            "dense_d_ff": self.dense_d_ff or 0,
            "q_lora_rank": self.q_lora_rank or 0,
            "kv_lora_rank": self.kv_lora_rank or 0,
            "qk_rope_head_dim": self.qk_rope_head_dim or 0,
            "v_head_dim": self.v_head_dim or 0,
        }

    @model_validator(mode="after")
    def _config_consistent(self) -> ModelConfig:
        if self.n_kv_heads > self.n_heads or self.n_heads % self.n_kv_heads:
            raise PresetProblem(
                "n_kv_heads",
                f"{self.n_kv_heads} KV heads cannot be shared evenly by {self.n_heads} query heads",
                "a divisor of n_heads (num_key_value_heads in config.json)",
            )
        if self.sliding_window_tokens is not None and self.sliding_window_tokens >= self.max_context_tokens:
            raise PresetProblem(
                "sliding_window_tokens",
                f"the window {self.sliding_window_tokens:,} is not below max_context_tokens "
                f"{self.max_context_tokens:,}",
                "sliding_window from config.json when use_sliding_window is on, or leave the key out",
            )
        if self.n_experts_active > self.n_experts:
            raise PresetProblem(
                "n_experts_active",
                f"{self.n_experts_active} active experts exceed the {self.n_experts} experts",
                "num_experts_per_tok from config.json, at most n_experts",
            )
        self._mixture_shape_consistent()
        self._latent_attention_consistent()
        width = self.n_heads * self.head_dim
        if width != self.d_model and not any("head_dim" in note for note in self.notes):
            raise PresetProblem(
                "head_dim",
                f"n_heads · head_dim = {width:,} differs from d_model {self.d_model:,}",
                "head_dim from config.json and a note that mentions head_dim and why it differs "
                "(as Gemma-2 does)",
            )
        self._check_counts()
        return self

    def _mixture_shape_consistent(self) -> None:
        if (self.n_shared_experts or self.n_dense_layers) and self.n_experts == 1:
            raise PresetProblem(
                "n_shared_experts" if self.n_shared_experts else "n_dense_layers",
                "is set for a dense model (n_experts is 1)",
                "leave it out, or set n_experts (n_routed_experts in config.json) and n_experts_active",
            )
        if self.n_dense_layers >= self.n_layers:
            raise PresetProblem(
                "n_dense_layers",
                f"{self.n_dense_layers} dense layers leave none of the {self.n_layers} for the experts",
                "first_k_dense_replace from config.json (DeepSeek-V3: 3)",
            )
        if bool(self.n_dense_layers) != (self.dense_d_ff is not None):
            raise PresetProblem(
                "dense_d_ff",
                "n_dense_layers and dense_d_ff come together",
                "both first_k_dense_replace and intermediate_size from config.json, or neither",
            )

    def _latent_attention_consistent(self) -> None:
        fields = {
            "kv_lora_rank": self.kv_lora_rank,
            "qk_rope_head_dim": self.qk_rope_head_dim,
            "v_head_dim": self.v_head_dim,
        }
        missing = [name for name, value in fields.items() if value is None]
        none_set = len(missing) == len(fields) and self.q_lora_rank is None
        if not missing or none_set:
            return
        raise PresetProblem(
            missing[0],
            "is missing for multi-head latent attention (another MLA field is set)",
            "kv_lora_rank, qk_rope_head_dim and v_head_dim from config.json together (q_lora_rank "
            "where the queries are compressed), or none of them",
        )

    def _check_counts(self) -> None:
        # A private recording block keeps these checks out of any derivation being recorded by
        # whoever triggered the first (cached) load.
        with recording():
            total = transformer_params(**self._shape())
            active = active_params(**self._shape(), n_experts_active=self.n_experts_active)
        _require_close("n_params", self.n_params, total, "transformer_params")
        if self.n_experts == 1:
            if self.n_active_params is not None:
                raise PresetProblem(
                    "n_active_params",
                    "is set for a dense model (n_experts is 1)",
                    "leave n_active_params out, or set n_experts and n_experts_active",
                )
            return
        if self.n_active_params is None:
            raise PresetProblem(
                "n_active_params",
                f"is missing for a mixture of {self.n_experts} experts",
                f"about {active:,.0f} (grader.estimator.active_params of this config)",
            )
        _require_close("n_active_params", self.n_active_params, active, "active_params")


def _require_close(field: str, stated: float, counted: float, estimator: str) -> None:
    if abs(stated - counted) > PARAM_COUNT_TOLERANCE * counted:
        raise PresetProblem(
            field,
            f"{stated:,.0f} is {100 * (stated - counted) / counted:+.1f} % from the "
            f"{counted:,.0f} that grader.estimator.{estimator} counts for this config",
            f"the count computed from the config (about {counted:,.0f}), or fix the config fields",
        )


_P = TypeVar("_P", bound=_Preset)


def load_hardware(path: Path | str | None = None) -> dict[str, Accelerator]:
    """Accelerator presets by id, from ``path`` (default: the bundled ``data/hardware.yaml``)."""
    return dict(_load(*_file_version(path, HARDWARE_PATH), "accelerators", Accelerator))


def load_models(path: Path | str | None = None) -> dict[str, ModelConfig]:
    """Model presets by id, from ``path`` (default: the bundled ``data/models.yaml``)."""
    return dict(_load(*_file_version(path, MODELS_PATH), "models", ModelConfig))


def standard_attention_models(path: Path | str | None = None) -> dict[str, ModelConfig]:
    """The model presets whose KV cache is 2 · layers · KV heads · head_dim per token.

    What a page that computes KV, attention and tensor-parallel splits from those fields may offer:
    a latent-attention model (DeepSeek-V3) caches layers · (kv_lora_rank + qk_rope_head_dim) instead.
    """
    return {key: model for key, model in load_models(path).items() if not model.latent_attention}


def _file_version(path: Path | str | None, default: Path) -> tuple[Path, int]:
    """The resolved path and its modification time, so an edited file is read again."""
    resolved = (default if path is None else Path(path)).resolve()
    try:
        return resolved, resolved.stat().st_mtime_ns
    except OSError:
        return resolved, -1


@cache
def _load(path: Path, modified_ns: int, key: str, cls: type[_P]) -> dict[str, _P]:
    # Cached per file version; callers get a copy of the dict, the frozen presets are shared.
    where = display_path(path)
    entries = _read_entries(path, key, where)
    presets: dict[str, _P] = {}
    issues: list[BankIssue] = []
    for index, entry in enumerate(entries):
        preset_id = str(entry.get("id", "")) if isinstance(entry, dict) else ""
        label = preset_id or f"{key}[{index}]"
        if not isinstance(entry, dict):
            issues.append(_issue(where, label, "", "is not a mapping", "id: ..., name: ..., and the fields"))
            continue
        if preset_id in presets:
            issues.append(_issue(where, label, "id", "is used twice", "a unique lower_snake_case id"))
            continue
        try:
            presets[preset_id] = cls.model_validate(entry)
        except ValidationError as exc:
            issues.extend(_issues_from(exc, where, label))
    if issues:
        raise BankError(issues)
    return presets


def _read_entries(path: Path, key: str, where: str) -> list[Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BankError([_issue(where, "", "", f"cannot be read ({exc.strerror})", "")]) from exc
    except yaml.YAMLError as exc:
        raise BankError([_issue(where, "", "", f"is not valid YAML ({exc})", "")]) from exc
    if not isinstance(data, dict) or set(data) != {key} or not isinstance(data[key], list):
        raise BankError(
            [_issue(where, "", key, "is missing or not a list", f"one top-level key {key}: [...]")]
        )
    return data[key]


def _issues_from(exc: ValidationError, where: str, label: str) -> list[BankIssue]:
    issues = []
    for error in exc.errors():
        cause = (error.get("ctx") or {}).get("error")
        if isinstance(cause, PresetProblem):
            issues.append(_issue(where, label, cause.field, cause.message, cause.hint))
            continue
        field = ".".join(str(part) for part in error["loc"])
        top = str(error["loc"][0]) if error["loc"] else ""
        hint = "remove it" if error["type"] == "extra_forbidden" else _HINTS.get(top, "")
        issues.append(_issue(where, label, field, error["msg"], hint))
    return issues


def _issue(where: str, label: str, field: str, message: str, hint: str) -> BankIssue:
    return BankIssue(file=where, line=0, template_id=label, field=field, message=message, hint=hint)
