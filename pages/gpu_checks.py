"""GPU checks: live micro-timings on this device, beside the estimator's predictions."""

from ui.gpu_checks.page_view import show_gpu_checks_page

show_gpu_checks_page()
