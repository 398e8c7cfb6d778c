"""Plan rules: each reads a whole job, the TrainingPlan with its scripts, configs and launch
command (``audit`` only); a ``PlanRule`` subclass."""
