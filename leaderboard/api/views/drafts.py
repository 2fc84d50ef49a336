"""Thin API view of a ranked daily's log saved as it is played (``play.services.drafts``)."""

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ...play.selectors import submissions as submission_reads
from ...play.services import drafts
from ..params import valid_body
from ..serializers import DraftOut, SubmissionIn
from .common import ERRORS


class DraftView(APIView):
    """The game so far of a ranked try at today's deal: kept (the last one only) so that, never
    sent, it becomes the try's result once the day is final."""

    permission_classes = [IsAuthenticated]
    throttle_scope = "draft"

    @extend_schema(request=SubmissionIn, responses={200: DraftOut, **ERRORS})
    def put(self, request, attempt_id):
        attempt = submission_reads.attempt_for(request.user, attempt_id)
        data = valid_body(SubmissionIn, request)
        draft = drafts.draft_save(
            attempt=attempt, player=request.user, actions=data["actions"], times=data.get("times")
        )
        return Response({"actions": len(draft.actions), "saved_at": draft.saved_at})
