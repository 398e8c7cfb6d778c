"""Built-in rules, one per module, each registered with ``@register``.

``preflight.registry.all_rules()`` imports every module here.
"""
